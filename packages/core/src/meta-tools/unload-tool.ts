import { StoreError } from '../state/store-error';
import { echoName } from './echo-name';
import { inputProblem } from './input-problem';
import type { MetaToolHost } from './meta-tool-host';
import { type UnloadToolOutput, unloadToolInput } from './meta-tool-schemas';

/** Names one `unload_tool` call may give, as for `load_tool`: more is a malformed call. */
const MAX_NAMES_PER_UNLOAD = 50;

/** What `unload_tool` takes, for the answer to a malformed call. */
const UNLOAD_TOOL_ARGUMENTS = {
  toolNames: `an array of 1 to ${MAX_NAMES_PER_UNLOAD} names of loaded tools (strings)`,
};

/** Executes `unload_tool` for a session. */
export async function unloadTools<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
  input: unknown,
): Promise<UnloadToolOutput> {
  const parsed = unloadToolInput.safeParse(input);
  if (!parsed.success)
    return {
      success: false,
      message: inputProblem('unload_tool', UNLOAD_TOOL_ARGUMENTS, parsed.error, input),
      unloaded: [],
    };
  if (new Set(parsed.data.toolNames).size > MAX_NAMES_PER_UNLOAD)
    return {
      success: false,
      message: `Unload at most ${MAX_NAMES_PER_UNLOAD} tools at once.`,
      unloaded: [],
    };
  // A tool may be named by its key; loaded tools are kept by id.
  const wanted = new Set(
    parsed.data.toolNames.map((name) => session.lookup(name)?.descriptor.id ?? name),
  );
  let unloaded: string[] = [];
  try {
    ({ unloaded } = await session.applyOperation({ type: 'unload', ids: [...wanted] }));
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return {
      success: false,
      message: 'Tools could not be unloaded right now. Try again.',
      unloaded: [],
    };
  }
  const notLoaded = [...wanted].filter((name) => !unloaded.includes(name)).map(echoName);
  if (unloaded.length > 0)
    session.emit('onEvict', { threadId: session.threadId, toolNames: unloaded, reason: 'unload' });
  return {
    success: unloaded.length > 0,
    message:
      unloaded.length > 0
        ? `Unloaded: ${unloaded.join(', ')}.`
        : 'None of these tools were loaded.',
    unloaded,
    ...(notLoaded.length > 0 && { notLoaded }),
  };
}
