/**
 * What the provider's prompt cache needs from a conversation, checked on the requests a
 * framework's mock model received: the same tool definitions on every request, and every
 * request's messages starting with the previous request's messages. Providers cache a prompt by
 * its prefix (tools, then system, then messages), so a request that breaks either is written to
 * the cache again at full price.
 */
import { expect } from 'vitest';

/** One request as a mock model received it, reduced to what the cache is keyed by. */
export interface SentRequest {
  /** The tool definitions, in the order they were sent (names, descriptions, schemas). */
  tools: unknown;
  /** The system prompt and messages, in order. */
  messages: readonly unknown[];
}

/**
 * Asserts that every request sends the first request's tools byte for byte (as JSON) and extends
 * the previous request's messages.
 * @param requests - the requests of one conversation, in the order they were sent
 * @param label - names the conversation in failure messages
 */
export function expectStablePrefix(requests: readonly SentRequest[], label = 'conversation'): void {
  expect(requests.length, `${label}: requests`).toBeGreaterThan(1);
  const tools = JSON.stringify(requests[0]!.tools);
  requests.forEach((request, position) => {
    expect(JSON.stringify(request.tools), `${label}: tools of request ${position}`).toBe(tools);
    if (position === 0) return;
    const previous = requests[position - 1]!.messages;
    expect(
      request.messages.length,
      `${label}: request ${position} has fewer messages than the one before`,
    ).toBeGreaterThan(previous.length);
    expect(
      JSON.stringify(request.messages.slice(0, previous.length)),
      `${label}: request ${position} does not start with request ${position - 1}'s messages`,
    ).toBe(JSON.stringify(previous));
  });
}
