import type { MetaToolHost } from './meta-tool-host';
import type { ToolDefinition } from './meta-tool-types';

/** The schema of a tool that declares none: an object of anything. */
const ANY_OBJECT_SCHEMA = Object.freeze({ type: 'object' });

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
