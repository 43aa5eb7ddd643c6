import { createTool } from '@mastra/core/tools';
import type { MetaTool } from 'tool-search-core';
import type { AnyMastraTool } from './tool-search-processor-options';

/**
 * Wraps a core meta-tool as a Mastra tool. The core answers bad input and failures in its output,
 * so the tool never throws.
 * @param metaTool - `search_tools`, `load_tool` or `unload_tool` of a session
 * @param onResult - told each output, with the id of the call when Mastra gives one
 */
export function toMastraMetaTool(
  metaTool: MetaTool,
  onResult?: (output: unknown, toolCallId: string | undefined) => void,
): AnyMastraTool {
  return createTool({
    id: metaTool.name,
    description: metaTool.description,
    inputSchema: metaTool.inputSchema,
    execute: async (input: unknown, context: unknown) => {
      const output = await metaTool.execute(input);
      onResult?.(output, toolCallIdOf(context));
      return output;
    },
  }) as AnyMastraTool;
}

/** The id of the model's call, where Mastra's tool execution context carries it. */
function toolCallIdOf(context: unknown): string | undefined {
  const fields = context as
    | { toolCallId?: unknown; agent?: { toolCallId?: unknown } | undefined }
    | undefined;
  const id = fields?.agent?.toolCallId ?? fields?.toolCallId;
  return typeof id === 'string' ? id : undefined;
}
