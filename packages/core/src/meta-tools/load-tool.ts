import { echoName } from './echo-name';
import { inputProblem } from './input-problem';
import { evictionNote, loadNames } from './load-names';
import type { MetaToolHost } from './meta-tool-host';
import { type LoadToolOutput, loadToolInput } from './meta-tool-schemas';
import { suggestNames } from './suggest-names';
import { toolDefinitions } from './tool-definitions';

/** Names one `load_tool` call may ask for; more is a malformed call, not a real need. */
const MAX_NAMES_PER_LOAD = 50;

/** What each argument of `load_tool` takes, for the answer to a malformed call. */
const LOAD_TOOL_ARGUMENTS = {
  toolName: 'one exact tool name from search results (a string)',
  toolNames: `an array of up to ${MAX_NAMES_PER_LOAD} exact tool names (strings)`,
};

/**
 * Executes `load_tool` for a session, answering in Mastra's result shapes and phrases (`loaded
 * successfully`, `already loaded`, `not found`), each followed by what to do next.
 */
export async function loadTool<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  input: unknown,
): Promise<LoadToolOutput> {
  const output = await loadToolOutput(session, input);
  if (session.expose !== 'proxy') return output;
  // Under proxy the loaded tools never join the model's tools: their definitions come back here,
  // at the end of the conversation, where they leave the cached prompt prefix alone.
  const ids = [
    ...new Set([
      ...(output.success && output.toolName !== undefined ? [output.toolName] : []),
      ...(output.loaded ?? []),
      ...(output.alreadyLoaded ?? []),
    ]),
  ];
  if (ids.length === 0) return output;
  return { ...output, tools: toolDefinitions(session, ids) };
}

async function loadToolOutput<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  input: unknown,
): Promise<LoadToolOutput> {
  const proxy = session.expose === 'proxy';
  const callIt = proxy
    ? 'Run it with call_tool, as its inputSchema in tools describes.'
    : 'Call it from your next step.';
  const callAgain = proxy ? 'Run it with call_tool.' : 'Call it directly.';
  const callThem = proxy ? 'run them with call_tool' : 'call them from your next step';
  const parsed = loadToolInput.safeParse(input);
  if (!parsed.success) {
    return {
      success: false,
      message: inputProblem('load_tool', LOAD_TOOL_ARGUMENTS, parsed.error, input),
    };
  }
  const { toolName, toolNames } = parsed.data;
  const names = [...new Set([...(toolNames ?? []), ...(toolName ? [toolName] : [])])];
  if (names.length === 0) {
    return {
      success: false,
      message:
        toolNames?.length === 0
          ? 'toolNames array must not be empty.'
          : 'Give load_tool a toolName (one exact name from search results) or toolNames (several).',
    };
  }
  if (names.length > MAX_NAMES_PER_LOAD) {
    return { success: false, message: `Load at most ${MAX_NAMES_PER_LOAD} tools at once.` };
  }
  const outcome = await loadNames(session, names, 'load_tool');
  if (outcome.failed) {
    return {
      success: false,
      message:
        'Tools could not be loaded right now because the tool state is unavailable. Try again.',
    };
  }
  if (toolNames === undefined && toolName !== undefined) {
    if (outcome.notFound.length > 0) {
      const suggestions = await suggestAllowed(session, toolName);
      const hint =
        suggestions.length > 0
          ? ` Did you mean: ${suggestions.join(', ')}?`
          : ' Use search_tools to find tools.';
      const echoed = echoName(toolName);
      return { success: false, message: `Tool "${echoed}" not found.${hint}`, toolName: echoed };
    }
    const [already] = outcome.alreadyLoaded;
    if (already !== undefined) {
      // A thread over its budget (a budget lowered since, parallel loads) evicts even here.
      return {
        success: true,
        message: `Tool "${already}" is already loaded. ${callAgain}${evictionNote(outcome.evicted)}`,
        toolName: already,
        loaded: [already],
        ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
      };
    }
    const [loaded] = outcome.loaded;
    if (loaded === undefined) {
      // Loaded, then evicted at once: a budget smaller than the pins leaves no room.
      return {
        success: false,
        message: `Tool "${echoName(toolName)}" could not stay loaded.${evictionNote(outcome.evicted)}`,
        toolName: echoName(toolName),
        evicted: outcome.evicted,
      };
    }
    return {
      success: true,
      message: `Tool "${loaded}" loaded successfully. ${callIt}${evictionNote(outcome.evicted)}`,
      toolName: loaded,
      loaded: [loaded],
      ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
    };
  }
  const notFound = outcome.notFound.map(echoName);
  const parts: string[] = [];
  if (outcome.loaded.length > 0)
    parts.push(`Loaded: ${outcome.loaded.join(', ')} (loaded successfully; ${callThem})`);
  if (outcome.alreadyLoaded.length > 0)
    parts.push(`Already loaded: ${outcome.alreadyLoaded.join(', ')}`);
  if (notFound.length > 0)
    parts.push(`Not found: ${notFound.join(', ')} (use search_tools to find tools)`);
  return {
    success: outcome.notFound.length === 0,
    message: parts.join(' | ') + evictionNote(outcome.evicted),
    loadedCount: outcome.loaded.length,
    ...(outcome.loaded.length > 0 && { loaded: outcome.loaded }),
    ...(outcome.alreadyLoaded.length > 0 && { alreadyLoaded: outcome.alreadyLoaded }),
    ...(notFound.length > 0 && { notFound }),
    ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
  };
}

/**
 * Near names the model may load: each tool once, under its key or its id (whichever is closer,
 * the key on a tie, as Mastra suggests keys), and only tools the `load` filter allows.
 */
async function suggestAllowed<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  name: string,
): Promise<string[]> {
  const candidates = [...session.knownIds()].map((id) => {
    const key = session.lookup(id)?.key;
    // A key that names another tool in this request (a resolved tool's id) is not this tool's.
    return key !== undefined && key !== id && session.lookup(key)?.descriptor.id === id
      ? [key, id]
      : [id];
  });
  const near = suggestNames(name, candidates);
  const verdicts = await Promise.all(near.map((label) => session.allows(label, 'load')));
  return near.filter((_, position) => verdicts[position]);
}
