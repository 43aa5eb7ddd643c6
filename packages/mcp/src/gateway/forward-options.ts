import type { ServerContext } from '@modelcontextprotocol/server';
import type { UpstreamCallOptions } from '../upstream/upstream-connection';

/**
 * What a forwarded call takes from the client's request: its abort signal (a cancelled request
 * is cancelled upstream) and, when the client sent a `progressToken`, a relay that sends the
 * upstream's progress back under the client's own token.
 */
export function forwardOptionsOf(context: ServerContext): UpstreamCallOptions {
  const progressToken = context.mcpReq._meta?.progressToken;
  return {
    signal: context.mcpReq.signal,
    ...(progressToken !== undefined && {
      onProgress: (progress) => {
        context.mcpReq
          .notify({ method: 'notifications/progress', params: { ...progress, progressToken } })
          .catch(() => undefined);
      },
    }),
  };
}
