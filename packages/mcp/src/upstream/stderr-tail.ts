/**
 * Characters of an upstream's stderr kept for the message when it fails: the end of a crash, an
 * npm error's four lines, a Python traceback's last frames. A server that logs megabytes costs
 * no more than this.
 */
const KEPT_CHARACTERS = 4_096;
/** A line longer than this is cut (and passed on in pieces), so one endless line cannot fill memory. */
const MAX_LINE_CHARACTERS = 1_000;
/** Lines of the tail a failure message quotes: npm ends a failed fetch with four. */
const SUMMARY_LINES = 5;
/** Characters of the quoted tail at most, its end kept: where the error is. */
const MAX_SUMMARY_CHARACTERS = 600;
/**
 * Lines that say nothing alone: stack frames, and the braces and carets of Node's error print
 * (`{`, `}`, `^`, `]`).
 */
const NOISE_LINE = /^(at\s|[{}[\]^~]+$)/;

/**
 * The end of an upstream's stderr, as lines: fed chunk by chunk, it hands each complete line on
 * (for the log) and keeps the last few KB for the message that explains a failed start.
 */
export class StderrTail {
  readonly #onLine: (line: string) => void;
  readonly #lines: string[] = [];
  #kept = 0;
  #partial = '';

  /** @param onLine - receives each line as it completes (the gateway logs it) */
  constructor(onLine: (line: string) => void = () => undefined) {
    this.#onLine = onLine;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: string): void {
    let text = this.#partial + chunk;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      this.#line(text.slice(0, newline));
      text = text.slice(newline + 1);
      newline = text.indexOf('\n');
    }
    while (text.length > MAX_LINE_CHARACTERS) {
      this.#line(text.slice(0, MAX_LINE_CHARACTERS));
      text = text.slice(MAX_LINE_CHARACTERS);
    }
    this.#partial = text;
  }

  /** Takes what is left of a line without a newline (the stream ended). */
  end(): void {
    if (this.#partial !== '') this.#line(this.#partial);
    this.#partial = '';
  }

  /**
   * The last lines that say something, joined by ` | ` and cut to a few hundred characters, or
   * `undefined` when the server wrote nothing (on the last line still being written included).
   * @param redact - applied to the text, so a token the server echoed is not repeated
   */
  summary(redact: (text: string) => string = (text) => text): string | undefined {
    const lines = [...this.#lines, this.#partial]
      .map((line) => line.trim())
      .filter((line) => line !== '' && !NOISE_LINE.test(line));
    if (lines.length === 0) return undefined;
    const text = redact(lines.slice(-SUMMARY_LINES).join(' | '));
    return text.length > MAX_SUMMARY_CHARACTERS ? `…${text.slice(-MAX_SUMMARY_CHARACTERS)}` : text;
  }

  #line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    this.#onLine(line);
    this.#lines.push(line);
    this.#kept += line.length;
    while (this.#kept > KEPT_CHARACTERS && this.#lines.length > 1)
      this.#kept -= this.#lines.shift()!.length;
  }
}
