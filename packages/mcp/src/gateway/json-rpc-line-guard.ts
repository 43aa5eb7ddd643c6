import { Transform, type TransformCallback } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage } from '@modelcontextprotocol/server';

/** JSON-RPC 2.0's code for a message that is not JSON. */
const PARSE_ERROR = -32_700;
/** JSON-RPC 2.0's code for JSON that is not a valid request. */
const INVALID_REQUEST = -32_600;
const NEWLINE = 0x0a;

/** Options of {@link guardJsonRpcLines}. */
export interface JsonRpcLineGuardOptions {
  /** Sends an error answer to the client (on the transport's own output). */
  answer: (message: JSONRPCMessage) => void;
  log: (message: string) => void;
  /**
   * A line longer than this is passed on unread, so the transport's own size limit ends the
   * session as it would without the guard.
   */
  maxLineBytes: number;
}

/**
 * Reads newline-delimited JSON-RPC (the stdio transport's framing) ahead of the MCP SDK's stdio
 * transport, which skips a line that is not JSON without a word and reports one that is not
 * JSON-RPC only to the server: here each gets the answer JSON-RPC 2.0 prescribes (`-32700 Parse
 * error`, `-32600 Invalid Request` with the request's id when it has a usable one), and only
 * well-formed messages go on.
 * @returns the stream to hand to the SDK's `StdioServerTransport` as its stdin
 */
export function guardJsonRpcLines(
  input: NodeJS.ReadableStream,
  options: JsonRpcLineGuardOptions,
): Transform {
  const guard = new JsonRpcLineGuard(options);
  input.pipe(guard);
  input.on('error', (error) => guard.destroy(error as Error));
  return guard;
}

class JsonRpcLineGuard extends Transform {
  readonly #options: JsonRpcLineGuardOptions;
  #partial: Buffer[] = [];
  #partialBytes = 0;
  /** Set once a line outgrew the limit: the rest is the transport's business. */
  #passThrough = false;

  constructor(options: JsonRpcLineGuardOptions) {
    super();
    this.#options = options;
  }

  override _transform(chunk: Buffer | string, _encoding: string, done: TransformCallback): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.#passThrough) {
      done(null, bytes);
      return;
    }
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const piece = bytes.subarray(start, end + 1);
      const line = this.#partial.length > 0 ? Buffer.concat([...this.#partial, piece]) : piece;
      this.#partial = [];
      this.#partialBytes = 0;
      if (this.#accepts(line)) this.push(line);
      start = end + 1;
    }
    if (start < bytes.length) {
      this.#partial.push(bytes.subarray(start));
      this.#partialBytes += bytes.length - start;
      if (this.#partialBytes > this.#options.maxLineBytes) {
        this.#passThrough = true;
        this.push(Buffer.concat(this.#partial));
        this.#partial = [];
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // An unterminated last line is not a message; the SDK's transport ignores it too.
    done();
  }

  /** Whether a line goes on to the transport; answers it when it is not a message. */
  #accepts(line: Buffer): boolean {
    const text = line.toString('utf8').trim();
    if (text === '') return false;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#refuse(PARSE_ERROR, 'Parse error: the line is not JSON', null);
      return false;
    }
    try {
      parseJSONRPCMessage(value);
      return true;
    } catch {
      // A malformed answer to one of our own requests is not answered: there is nothing to reply to.
      if (isObject(value) && ('result' in value || 'error' in value)) {
        this.#options.log('a client line looked like a JSON-RPC response but is not one; ignored');
        return false;
      }
      const id = isObject(value) ? value.id : undefined;
      const usableId = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
      this.#refuse(
        INVALID_REQUEST,
        'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message',
        usableId ? (id as string | number) : null,
      );
      return false;
    }
  }

  #refuse(code: number, message: string, id: string | number | null): void {
    this.#options.log(`answered a client line with ${code} (${message})`);
    // `id: null` is JSON-RPC 2.0's id for an error about a request whose id could not be read.
    this.#options.answer({ jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
