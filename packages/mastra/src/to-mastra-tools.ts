import { createTool } from '@mastra/core/tools';
import type { MetaTool, ToolRun } from 'tool-search-core';
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
      // `call_tool` hands the step's execution context on to the tool it runs.
      const output = await metaTool.execute(input, context);
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

/**
 * Runs a catalog tool for `call_tool` as the agent would: its `execute` gets the arguments and
 * the execution context of the `call_tool` call (tool call id, messages, request context), and
 * a Mastra tool validates its input with its own schema.
 * @throws what the tool throws, for Mastra to report as `call_tool`'s error
 */
export function runMastraTool({
  id,
  tool,
  arguments: args,
  callOptions,
}: ToolRun<AnyMastraTool, unknown>) {
  const execute = (tool as { execute?: unknown }).execute;
  if (typeof execute !== 'function') {
    throw new Error(`Tool "${id}" has no execute function, so call_tool cannot run it.`);
  }
  return execute.call(tool, args, callOptions);
}
