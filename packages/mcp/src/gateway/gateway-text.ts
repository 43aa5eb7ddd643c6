import type { CallToolResult } from '@modelcontextprotocol/server';

/**
 * A tool name as error messages show it: cut to the length SECURITY.md states for every entry
 * point (the core's `echoName`), so a hostile name is never echoed whole.
 */
export { echoName as echo } from 'tool-search-core';

/** Characters of an error kept in a log line. */
const MAX_LOGGED_ERROR = 300;

/** An error as one log line, cut to 300 characters. */
export function oneLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  return text.length > MAX_LOGGED_ERROR ? `${text.slice(0, MAX_LOGGED_ERROR)}…` : text;
}

/** Causes nested deeper than this are left out of a log line. */
const MAX_CAUSES = 4;

/**
 * An error and its causes as one line ("EmbeddingError: The embedder failed: fetch failed:
 * connect ECONNREFUSED ..."), cut as `oneLine` cuts: the reason is often two causes down.
 */
export function errorText(error: unknown): string {
  let text = String(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < MAX_CAUSES; depth++) {
    const errors = cause instanceof AggregateError ? cause.errors : [];
    const message =
      cause instanceof Error
        ? cause.message ||
          (cause as { code?: unknown }).code?.toString() ||
          (errors[0] instanceof Error ? errors[0].message : '')
        : String(cause);
    if (message) text += `: ${message}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return oneLine(text);
}

/** A tool result the model reads as an error. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Whether a value is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
