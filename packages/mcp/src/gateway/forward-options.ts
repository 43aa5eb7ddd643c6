import type { ServerContext } from '@modelcontextprotocol/server';
import type { UpstreamCallOptions } from '../upstream/upstream-connection';

/** A forwarded call's options, and a way to wait until every relayed progress update is sent. */
export interface ForwardOptions extends UpstreamCallOptions {
  /**
   * Resolves once the progress updates relayed so far have been sent to the client: awaited
   * before the call's result is answered, so the last update never arrives after the result
   * (a client drops progress for a request it has an answer to).
   */
  drained(): Promise<void>;
}

/**
 * What a forwarded call takes from the client's request: its abort signal (a cancelled request
 * is cancelled upstream) and, when the client sent a `progressToken`, a relay that sends the
 * upstream's progress back under the client's own token, in order.
 */
export function forwardOptionsOf(context: ServerContext): ForwardOptions {
  const progressToken = context.mcpReq._meta?.progressToken;
  let relayed: Promise<void> = Promise.resolve();
  return {
    signal: context.mcpReq.signal,
    ...(progressToken !== undefined && {
      onProgress: (progress) => {
        relayed = relayed.then(() =>
          context.mcpReq
            .notify({ method: 'notifications/progress', params: { ...progress, progressToken } })
            .catch(() => undefined),
        );
      },
    }),
    drained: async () => {
      // The SDK calls notification handlers a microtask after it has read them, but resolves a
      // response at once: an update the upstream sent just before its result reaches us after the
      // result. One turn of the event loop lets it land; then everything relayed is awaited.
      if (progressToken === undefined) return;
      await new Promise((resolve) => setImmediate(resolve));
      await relayed;
    },
  };
}
