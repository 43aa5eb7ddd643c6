import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Whether an address only accepts connections from this machine: `localhost`, any of
 * `127.0.0.0/8` (written as four decimal numbers), or `::1`.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  const parts = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(bare);
  return parts?.slice(1).every((part) => Number(part) <= 255) ?? false;
}

/** The hostname of a `Host` header (without its port), or `undefined` when it is not one. */
function hostnameOfHeader(header: string): string | undefined {
  // `new URL` would read a path or credentials after the host: a Host header holds neither.
  if (header === '' || /[\s/?#@\\]/.test(header)) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

/** The hostname of an `Origin` header, or `undefined` when it is not an http(s) origin. */
function hostnameOfOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The gateway's DNS-rebinding guards for a request: on loopback the `Host` header must name a
 * loopback address, and a present `Origin` must be loopback (when bound to loopback) or one of
 * `allowedOrigins`. Answers 403 and returns `false` when the request is refused.
 */
export function passesHostAndOrigin(
  request: IncomingMessage,
  response: ServerResponse,
  options: { loopback: boolean; allowedOrigins: readonly string[] },
): boolean {
  if (options.loopback) {
    const header = request.headers.host;
    const hostname = typeof header === 'string' ? hostnameOfHeader(header) : undefined;
    if (hostname === undefined || !isLoopbackHost(hostname)) {
      refuse(response, `Invalid Host header: ${cut(String(header))}`);
      return false;
    }
  }
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const hostname = hostnameOfOrigin(origin);
  const allowed =
    hostname !== undefined &&
    ((options.loopback && isLoopbackHost(hostname)) ||
      options.allowedOrigins.some((name) => name.toLowerCase() === hostname.toLowerCase()));
  if (!allowed) refuse(response, `Invalid Origin header: ${cut(origin)}`);
  return allowed;
}

/** Characters of a refused header echoed in the answer. */
const MAX_ECHOED_HEADER = 120;

function cut(value: string): string {
  return value.length > MAX_ECHOED_HEADER ? `${value.slice(0, MAX_ECHOED_HEADER)}…` : value;
}

function refuse(response: ServerResponse, message: string): void {
  response.writeHead(403, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Why a body was not read whole. */
export type BodyProblem = 'too-large' | 'aborted';

/**
 * Reads a request's body whole, up to `limit` bytes: a session is made only for a request that
 * has arrived, so bodies still on their way hold no session and count against nothing.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer | BodyProblem> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | BodyProblem) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading; the answer (413) ends the exchange.
        request.pause();
        finish('too-large');
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onAbort = () => finish('aborted');
    const onClose = () => {
      if (!request.complete) finish('aborted');
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAbort);
    request.on('close', onClose);
  });
}
