import type { ToolResultRecord } from 'tool-search-core';

/**
 * The key, in Mastra's per-request processor state, under which the meta-tool results this
 * request produced are kept until its messages show them.
 */
const REQUEST_RESULTS_KEY = 'tool-search:request-results';

/** A meta-tool result of this request, and the call it answered when Mastra said which. */
interface RequestResult {
  toolCallId: string | undefined;
  record: ToolResultRecord;
}

/**
 * Keeps a meta-tool result in the request's state, so the next step of the same request sees the
 * load even when the messages it is given do not show the result yet (a caller driving steps
 * itself, a trimmed history). The state lives as long as the request: another request, on the
 * same thread or none, never sees it, and an aborted request leaves nothing behind.
 * @param state - Mastra's per-request processor state (`args.state`), if any
 * @param result - the result, and the id of the call it answered
 */
export function keepRequestResult(
  state: Record<string, unknown> | undefined,
  result: RequestResult,
): void {
  if (!state) return;
  const kept = state[REQUEST_RESULTS_KEY];
  if (Array.isArray(kept)) kept.push(result);
  else state[REQUEST_RESULTS_KEY] = [result];
}

/**
 * The results this request produced that its messages do not show, oldest first. A result the
 * messages show (the same call id) is dropped from the state: from then on the messages own it,
 * so trimming them unloads the tool as usual.
 * @param state - Mastra's per-request processor state (`args.state`), if any
 * @param shownCallIds - the ids of the calls whose results are in the step's messages
 */
export function requestResultsOf(
  state: Record<string, unknown> | undefined,
  shownCallIds: ReadonlySet<string>,
): ToolResultRecord[] {
  const kept = state?.[REQUEST_RESULTS_KEY];
  if (!Array.isArray(kept)) return [];
  const pending = (kept as RequestResult[]).filter(
    (result) => result.toolCallId === undefined || !shownCallIds.has(result.toolCallId),
  );
  state![REQUEST_RESULTS_KEY] = pending;
  return pending.map((result) => result.record);
}
