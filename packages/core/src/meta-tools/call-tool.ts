import { checkArguments } from './argument-check';
import { echoName } from './echo-name';
import { inputProblem } from './input-problem';
import type { MetaToolHost } from './meta-tool-host';
import { CALL_TOOL_NAME } from './meta-tool-names';

/** What each argument of `call_tool` takes, for the answer to a malformed call. */
const CALL_TOOL_ARGUMENTS = {
  name: 'the exact name of a loaded tool (a string)',
  arguments: "an object of that tool's parameters, or left out when it takes none",
};

import { type CallToolOutcome, type CallToolRefusal, callToolInput } from './meta-tool-schemas';

/**
 * Runs a loaded tool for `call_tool`: refuses a tool that is not pinned or loaded, or that the
 * `active` filter denies now, and arguments that break the tool's input schema; only then hands
 * the call to the engine's `runTool`. A refused call never reaches the tool.
 * @param session - the request's session
 * @param input - the model's `{ name, arguments }`
 * @param callOptions - the framework's options of this call, handed to `runTool`
 * @throws what `runTool` throws: the tool's own error, for the framework to report as it would
 */
export async function callLoadedTool<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  input: unknown,
  callOptions: unknown,
): Promise<CallToolOutcome> {
  const parsed = callToolInput.safeParse(input);
  if (!parsed.success) {
    return refuse(inputProblem(CALL_TOOL_NAME, CALL_TOOL_ARGUMENTS, parsed.error, input));
  }
  const { name } = parsed.data;
  const args = parsed.data.arguments ?? {};
  if (session.metaTools.some((metaTool) => metaTool.name === name)) {
    return refuse(`${name} is not a loaded tool: call it directly, not through call_tool.`, name);
  }
  // An unknown tool and a denied one get the same answer: a refusal reveals nothing.
  const active = await session.activeTool(name);
  if (!active) return refuse(notLoadedMessage(session, name), name);
  const { descriptor } = active;
  const verdict = checkArguments(descriptor, args);
  if (verdict.kind === 'invalid') {
    const where = verdict.problems
      .map(({ path, message }) => `at arguments${path}: ${message.replace(/\.$/, '')}`)
      .join('; ');
    return {
      status: 'refused',
      output: {
        success: false,
        message: `The arguments of "${descriptor.id}" do not match its input schema, so it was not run: ${where}. Fix the arguments and call it again.`,
        toolName: descriptor.id,
        errors: verdict.problems,
      },
    };
  }
  if (verdict.kind === 'unchecked') {
    session.emit('onError', {
      threadId: session.threadId,
      operation: 'call_tool.schema',
      error: verdict.error,
    });
  }
  const runTool = session.settings.runTool!;
  const result = await runTool({
    id: descriptor.id,
    key: active.key,
    tool: active.tool,
    arguments: args,
    requestContext: session.requestContext,
    threadId: session.threadId,
    callOptions,
  });
  return { status: 'ran', toolName: descriptor.id, result };
}

function refuse(message: string, name?: string): CallToolOutcome {
  const output: CallToolRefusal = { success: false, message };
  if (name !== undefined) output.toolName = echoName(name);
  return { status: 'refused', output };
}

function notLoadedMessage<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  name: string,
): string {
  const how = session.settings.autoLoad
    ? 'Call search_tools with what you want to do (the tools it finds are loaded)'
    : 'Call search_tools with what you want to do, then load_tool with the exact name it returns';
  return `Tool "${echoName(name)}" is not loaded. ${how}, then run it with call_tool.`;
}
