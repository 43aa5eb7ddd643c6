import type { MetaToolHost } from './meta-tool-host';
import type { ToolDefinition } from './meta-tool-types';
import { toolWeight } from './tool-weight';

/** The schema of a tool that declares none: an object of anything. */
const ANY_OBJECT_SCHEMA = Object.freeze({ type: 'object' });

/**
 * A definition heavier than this (estimated tokens) is not repeated where the model did not ask
 * for it (a search's best results, a refused call): one tool with a schema of thousands of enum
 * values would otherwise be read again by every later request. `load_tool` still answers with it.
 */
export const MAX_INLINE_DEFINITION_TOKENS = 4_000;

/**
 * The definitions of loaded tools, by id, for `load_tool`'s answer under `expose: 'proxy'`: the
 * full description and input schema, which is what the model would have seen among its tools.
 * @param session - the request's session
 * @param ids - tool ids; one that is not a tool of this request is left out
 */
export function toolDefinitions<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  ids: readonly string[],
): ToolDefinition[] {
  return ids.flatMap((id) => {
    const descriptor = session.descriptorOf(id);
    if (!descriptor) return [];
    return [
      {
        name: descriptor.id,
        description: descriptor.description ?? '',
        inputSchema: descriptor.inputSchema ?? ANY_OBJECT_SCHEMA,
      },
    ];
  });
}

/**
 * {@link toolDefinitions} without the ones heavier than {@link MAX_INLINE_DEFINITION_TOKENS}: for
 * answers that bring definitions the model did not ask for.
 */
export function inlineDefinitions<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  ids: readonly string[],
): ToolDefinition[] {
  return toolDefinitions(
    session,
    ids.filter((id) => {
      const descriptor = session.descriptorOf(id);
      return descriptor !== undefined && toolWeight(descriptor) <= MAX_INLINE_DEFINITION_TOKENS;
    }),
  );
}
