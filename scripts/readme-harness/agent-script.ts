// What every scripted model of the README harnesses does, whatever its framework: search for the
// task, run the first result (through call_tool at once when the search answered its definition,
// `expose: 'proxy'`; else load it, then call it), answer with what it returned; or, when the
// catalog is given directly (under the `toolSearch: 'auto'` threshold), call the tool. It acts only on the tool
// results it is shown, so a snippet whose tool search does not work cannot get to the answer.

/** The task the scripted models are given, and the input they call the found tool with. */
export const TASK = { query: 'weather in Paris', tool: 'get_weather', input: { city: 'Paris' } };

/** A tool result as the model sees it in its prompt. */
export interface SeenResult {
  toolName: string;
  /** The result as an object, or its JSON text. */
  output: unknown;
}

/** The model's next move: call a tool, or answer. */
export type Move = { toolName: string; input: Record<string, unknown> } | { text: string };

/** What a scripted model records of each call, for `verify()`. */
export interface CallRecord {
  /** The tool names the model was sent. */
  tools: string[];
  move: Move;
}

/**
 * Decides the next move from the tool results so far (oldest first) and the tools the model was
 * sent: a loaded tool is called directly when it is among them, else through `call_tool`.
 */
export function nextMove(results: readonly SeenResult[], tools: readonly string[] = []): Move {
  const last = results.at(-1);
  if (!last) {
    // Below the `toolSearch: 'auto'` threshold the catalog is given directly: call the tool.
    if (!tools.includes('search_tools') && tools.includes(TASK.tool))
      return { toolName: TASK.tool, input: TASK.input };
    return { toolName: 'search_tools', input: { query: TASK.query } };
  }
  const output = parse(last.output) as {
    results?: { name?: unknown }[];
    tools?: { name?: unknown }[];
    success?: unknown;
    toolName?: unknown;
  };
  if (last.toolName === 'search_tools') {
    const found = output.results?.[0]?.name;
    if (typeof found !== 'string') return { text: 'Search found nothing.' };
    // The best results come with their definitions under proxy: run the top one at once.
    const defined = output.tools?.some((tool) => tool.name === found) ?? false;
    return defined && tools.includes(CALL_TOOL)
      ? { toolName: CALL_TOOL, input: { name: found, arguments: TASK.input } }
      : { toolName: 'load_tool', input: { toolName: found } };
  }
  if (last.toolName === 'load_tool') {
    if (output.success !== true || typeof output.toolName !== 'string')
      return { text: 'The tool did not load.' };
    return tools.includes(CALL_TOOL) && !tools.includes(output.toolName)
      ? { toolName: CALL_TOOL, input: { name: output.toolName, arguments: TASK.input } }
      : { toolName: output.toolName, input: TASK.input };
  }
  return { text: `Done: ${JSON.stringify(output)}` };
}

/** The meta-tool that runs a loaded tool under `expose: 'proxy'`. */
const CALL_TOOL = 'call_tool';

/** The meta-tools' names: every other tool a model is sent comes from the catalog. */
const META_TOOLS = ['search_tools', 'load_tool', 'unload_tool', CALL_TOOL];

/**
 * Throws unless the run went the way tool search promises. `'search'`: the first call offered
 * `search_tools` and no catalog tool, and the model later called a catalog tool it was offered
 * (directly, or through `call_tool`). `'direct'` (a catalog under the `toolSearch: 'auto'`
 * threshold): the first call offered the catalog and no meta-tool, and the model called it.
 */
export function verifyCalls(
  calls: readonly CallRecord[],
  expected: 'search' | 'direct' = 'search',
): void {
  const first = calls[0];
  if (!first) throw new Error('README harness: the snippet never called the model');
  const leaked = first.tools.filter((name) => !META_TOOLS.includes(name));
  if (expected === 'direct') {
    if (first.tools.some((name) => META_TOOLS.includes(name)) || !first.tools.includes(TASK.tool))
      throw new Error(
        `README harness: a catalog under the auto threshold should be offered directly, without meta-tools; the first call offered ${first.tools.join(', ')}`,
      );
  } else if (!first.tools.includes('search_tools') || leaked.length > 0) {
    throw new Error(
      `README harness: the first call should offer search_tools and no catalog tool; it offered ${first.tools.join(', ')}`,
    );
  }
  // A catalog tool called directly (it was among the tools sent) or through call_tool.
  const called = calls.find(
    (call) =>
      'toolName' in call.move &&
      (call.move.toolName === CALL_TOOL || !META_TOOLS.includes(call.move.toolName)),
  );
  if (!called || !('toolName' in called.move) || !called.tools.includes(called.move.toolName)) {
    throw new Error(
      `README harness: the model never got to call a loaded catalog tool: ${JSON.stringify(calls.map((call) => call.move))}`,
    );
  }
  const answer = calls.at(-1)?.move;
  if (!answer || !('text' in answer) || !answer.text.startsWith('Done:')) {
    throw new Error(
      `README harness: the run did not end with the tool's result: ${JSON.stringify(answer)}`,
    );
  }
}

function parse(output: unknown): unknown {
  if (typeof output !== 'string') return output ?? {};
  try {
    return JSON.parse(output);
  } catch {
    return {};
  }
}
