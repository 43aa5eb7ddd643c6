import {
  type ArgumentProblem,
  type ArgumentRefusalReason,
  type ArgumentVerdict,
  checkArguments,
} from './argument-check';
import { echoName } from './echo-name';
import { inputProblem } from './input-problem';
import { loadNames } from './load-names';
import type { HostEntry, MetaToolHost } from './meta-tool-host';
import { CALL_TOOL_NAME } from './meta-tool-names';
import { type CallToolOutcome, type CallToolRefusal, callToolInput } from './meta-tool-schemas';
import { inlineDefinitions } from './tool-definitions';

/** What each argument of `call_tool` takes, for the answer to a malformed call. */
const CALL_TOOL_ARGUMENTS = {
  name: 'the exact name of a catalog tool (a string)',
  arguments: "an object of that tool's parameters, or left out when it takes none",
};

/**
 * Runs a catalog tool for `call_tool`. A pinned or loaded tool runs when the `active` filter
 * allows it now and its arguments match its input schema. Under `expose: 'proxy'` a tool that is
 * not loaded yet is loaded by its call, when the `load` filter allows it (within the budget) and
 * its arguments match: so the model can run a tool its search showed in its very next request.
 * Arguments that do not match run nothing and answer with each problem (and, for a tool the
 * model had not loaded, its definition), so the next call can succeed. An unknown tool and one
 * the filter denies get the same refusal. A refused call never reaches the tool.
 * @param session - the request's session
 * @param input - the model's `{ name, arguments }`
 * @param callOptions - the framework's options of this call, handed to `runTool`
 * @throws what `runTool` throws: the tool's own error, for the framework to report as it would;
 *   and a deferred tool's resolution error, as `load_tool` throws it
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
    return refuse(`${name} is not a catalog tool: call it directly, not through call_tool.`, name);
  }
  const loadsOnCall = session.expose === 'proxy';
  let active = await session.activeTool(name, { quiet: loadsOnCall });
  let verdict: ArgumentVerdict | undefined;
  if (!active) {
    // An unknown tool and a denied one get the same answer: a refusal reveals nothing.
    if (!loadsOnCall) return refuse(notLoadedMessage(session, name), name);
    const loaded = await loadForCall(session, name, args);
    if (loaded.status === 'refused') return loaded;
    active = loaded.active;
    verdict = loaded.verdict;
  }
  const { descriptor } = active;
  verdict ??= checkArguments(descriptor, args);
  if (verdict.kind === 'invalid') return invalidArguments(session, active, verdict, false);
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

type ActiveEntry<TTool> = HostEntry<TTool> & { id: string };

/**
 * Loads a tool that is not loaded for its call: only a tool of the request that the filter allows
 * to load and to run (`load` and `active`), with arguments that match its schema (so a malformed
 * call takes no place in the budget); it runs if it is active then (a budget that kept it).
 */
async function loadForCall<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  name: string,
  args: Record<string, unknown>,
): Promise<
  | { status: 'loaded'; active: ActiveEntry<TTool>; verdict: ArgumentVerdict }
  | Extract<CallToolOutcome, { status: 'refused' }>
> {
  await session.prepareDeferred([name]);
  const id = session.idOf(name);
  const descriptor = id === undefined ? undefined : session.descriptorOf(id);
  if (id === undefined || descriptor === undefined) {
    session.deny(name, 'execute', 'unknown-tool');
    return refuse(notLoadedMessage(session, name), name);
  }
  // Reported by the filter's own refusal (`onDenied`). A tool that could not run once loaded is
  // not loaded either: a refused call changes nothing.
  const [loadable, runnable] = await Promise.all([
    session.allows(id, 'load'),
    session.allows(id, 'active'),
  ]);
  if (!loadable || !runnable) return refuse(notLoadedMessage(session, name), name);
  const verdict = checkArguments(descriptor, args);
  if (verdict.kind === 'invalid') {
    const entry = session.lookup(id);
    return invalidArguments(
      session,
      { id, key: entry?.key ?? id, tool: entry?.tool as TTool, descriptor },
      verdict,
      true,
    );
  }
  const outcome = await loadNames(session, [id], 'call_tool');
  if (outcome.failed) {
    return refuse(
      `Tool "${echoName(name)}" could not be loaded right now because the tool state is unavailable, so it was not run. Try again.`,
      name,
    );
  }
  const active = await session.activeTool(id);
  if (!active) return refuse(notLoadedMessage(session, name), name);
  // A deferred tool's descriptor is its metadata until resolved: check against what will run.
  return {
    status: 'loaded',
    active,
    verdict: active.descriptor === descriptor ? verdict : checkArguments(active.descriptor, args),
  };
}

/**
 * The refusal of arguments that break the tool's schema, or that could not be checked within the
 * check's bounds: each problem, and the tool's definition when the model had not loaded it (it
 * may never have seen the schema).
 */
function invalidArguments<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  entry: ActiveEntry<TTool>,
  verdict: { problems: readonly ArgumentProblem[]; reason: ArgumentRefusalReason },
  withDefinition: boolean,
): Extract<CallToolOutcome, { status: 'refused' }> {
  const { problems } = verdict;
  const id = entry.descriptor.id;
  const where = problems
    .map(({ path, message }) => `at arguments${path}: ${message.replace(/\.$/, '')}`)
    .join('; ');
  const tools = withDefinition ? inlineDefinitions(session, [id]) : [];
  const schemaNote = !withDefinition
    ? ''
    : tools.length > 0
      ? ' Its input schema is in tools.'
      : ' Its input schema is too large to repeat here: load_tool answers with it.';
  return {
    status: 'refused',
    output: {
      success: false,
      message:
        verdict.reason === 'mismatch'
          ? `The arguments of "${id}" do not match its input schema, so it was not run: ${where}. Fix the arguments and call it again.${schemaNote}`
          : `The arguments of "${id}" could not be checked against its input schema, so it was not run: ${where}.${schemaNote}`,
      toolName: id,
      errors: [...problems],
      ...(tools.length > 0 && { tools }),
    },
  };
}

function refuse(message: string, name?: string): Extract<CallToolOutcome, { status: 'refused' }> {
  const output: CallToolRefusal = { success: false, message };
  if (name !== undefined) output.toolName = echoName(name);
  return { status: 'refused', output };
}

function notLoadedMessage<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  name: string,
): string {
  if (session.expose === 'proxy') {
    return `Tool "${echoName(name)}" was not found. Call search_tools with what you want to do, then call_tool with the exact name it returns.`;
  }
  const how = session.settings.autoLoad
    ? 'Call search_tools with what you want to do (the tools it finds are loaded)'
    : 'Call search_tools with what you want to do, then load_tool with the exact name it returns';
  return `Tool "${echoName(name)}" is not loaded. ${how}, then run it with call_tool.`;
}
