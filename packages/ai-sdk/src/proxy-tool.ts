import { asSchema } from 'ai';
import type { ToolRun } from 'tool-search-core';
import type { AiTool } from './describe-ai-tool';

/** The AI SDK's `needsApproval` / `execute` call options, as far as they are read here. */
type CallOptions = Record<string, unknown> | undefined;

/**
 * Runs a catalog tool for `call_tool` as the AI SDK would have run it: the tool's own schema
 * parses the arguments first (its defaults and transforms apply), then its `execute` gets the
 * call's options (`toolCallId`, `messages`, `abortSignal`, the context). A result the tool
 * streams (an async iterable) is handed back as it is, for the AI SDK to stream as
 * `call_tool`'s own.
 * @throws an error the AI SDK reports as `call_tool`'s tool error: input the tool's schema
 *   rejects, a tool without `execute`, or what the tool threw
 */
export async function runAiTool(run: ToolRun<AiTool, unknown>): Promise<unknown> {
  const execute = (run.tool as { execute?: unknown }).execute;
  if (typeof execute !== 'function') {
    throw new Error(
      `Tool "${run.id}" has no execute function: the AI SDK hands its calls to your application, which call_tool cannot do. Pin it (alwaysLoaded) or use expose: 'tools'.`,
    );
  }
  const input = await parseInput(run);
  return execute.call(run.tool, input, run.callOptions ?? {});
}

async function parseInput(run: ToolRun<AiTool, unknown>): Promise<unknown> {
  const schema = (run.tool as { inputSchema?: unknown }).inputSchema;
  if (schema === null || typeof schema !== 'object') return run.arguments;
  let validate: ((value: unknown) => unknown) | undefined;
  try {
    validate = asSchema(schema as Parameters<typeof asSchema>[0]).validate;
  } catch {
    return run.arguments;
  }
  if (!validate) return run.arguments;
  const result = (await validate(run.arguments)) as
    | { success: true; value: unknown }
    | { success: false; error: unknown };
  if (result.success) return result.value;
  const reason = result.error instanceof Error ? result.error.message : String(result.error);
  throw new Error(`Invalid input for tool "${run.id}": ${reason}`);
}

/**
 * `call_tool`'s `needsApproval`: the called tool's own, so a tool that needs approval still
 * asks for it when the model reaches it through `call_tool`.
 * @param toolOf - the catalog or request tool a name stands for
 */
export function approvalOf(
  toolOf: (name: string, callOptions: CallOptions) => AiTool | undefined,
): (input: unknown, callOptions: CallOptions) => Promise<boolean> {
  return async (input, callOptions) => {
    const { name, arguments: args } = (input ?? {}) as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string') return false;
    const needsApproval = (toolOf(name, callOptions) as { needsApproval?: unknown } | undefined)
      ?.needsApproval;
    if (typeof needsApproval === 'function')
      return Boolean(await needsApproval(args ?? {}, callOptions));
    return needsApproval === true;
  };
}

/**
 * `call_tool`'s `toModelOutput` (ai 6 and 7 give it the call's input): the called tool's own,
 * so what the model sees of a result (an image, a text) is what it would have seen calling the
 * tool directly; otherwise the AI SDK's default, a text for a string and JSON for the rest.
 */
export function modelOutputOf(
  toolOf: (name: string) => AiTool | undefined,
): (options: unknown) => unknown {
  return (options) => {
    const fields = options as { toolCallId?: unknown; input?: unknown; output?: unknown };
    // ai 5 passes the output alone: no input to tell which tool ran.
    const isCallShape =
      fields !== null && typeof fields === 'object' && 'toolCallId' in fields && 'output' in fields;
    const output = isCallShape ? fields.output : options;
    if (isCallShape) {
      const { name, arguments: args } = (fields.input ?? {}) as {
        name?: unknown;
        arguments?: unknown;
      };
      const own =
        typeof name === 'string' && !isRefusal(output)
          ? (toolOf(name) as { toModelOutput?: unknown } | undefined)?.toModelOutput
          : undefined;
      if (typeof own === 'function') return own({ ...fields, input: args ?? {} });
    }
    return typeof output === 'string'
      ? { type: 'text', value: output }
      : { type: 'json', value: output === undefined ? null : output };
  };
}

/** Keys of `call_tool`'s refusal (`CallToolRefusal`), which is never the called tool's output. */
const REFUSAL_KEYS = new Set(['success', 'message', 'toolName', 'errors']);

function isRefusal(output: unknown): boolean {
  if (output === null || typeof output !== 'object') return false;
  const fields = output as Record<string, unknown>;
  return (
    fields.success === false &&
    typeof fields.message === 'string' &&
    Object.keys(fields).every((key) => REFUSAL_KEYS.has(key))
  );
}
