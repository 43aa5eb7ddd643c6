import type { Writable } from 'node:stream';

/** A stream with the terminal properties Node sets on `process.stdout` / `process.stderr`. */
export type TerminalStream = Writable & { isTTY?: boolean; columns?: number };

/** Where a command writes, and how. */
export interface CliIo {
  stdout: TerminalStream;
  stderr: TerminalStream;
  env: NodeJS.ProcessEnv;
  /** `--debug`: stack traces and MCP servers' logs on stderr. */
  debug: boolean;
  /** Writes one line to stdout. */
  print(text: string): void;
  /** Writes one line to stderr, prefixed `tool-search: `. */
  warn(text: string): void;
  /** The width tables fit in: the terminal's, else `$COLUMNS`, else no limit (nothing is cut). */
  width: number;
}

/** Creates the io of one command run. */
export function createIo(options: {
  stdout: TerminalStream;
  stderr: TerminalStream;
  env: NodeJS.ProcessEnv;
  debug: boolean;
}): CliIo {
  const { stdout, stderr } = options;
  return {
    ...options,
    print: (text) => stdout.write(`${text}\n`),
    warn: (text) => stderr.write(`tool-search: ${text}\n`),
    width: tableWidth(stdout, options.env),
  };
}

/**
 * A terminal's own width; `$COLUMNS` when writing elsewhere (so a script can ask for a width);
 * otherwise no limit, so a table written to a file or a pipe is never cut.
 */
function tableWidth(stdout: TerminalStream, env: NodeJS.ProcessEnv): number {
  if (stdout.isTTY && stdout.columns) return stdout.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : Number.POSITIVE_INFINITY;
}
