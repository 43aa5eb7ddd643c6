/**
 * The exit codes of the `tool-search` command. Scripts may rely on them.
 * - `ok` (0): the command did what was asked.
 * - `usage` (1): the command line is wrong (unknown command or flag, a missing or bad value).
 * - `input` (2): the input is wrong: a file that is missing or malformed, a wrong field, an MCP
 *   server that does not start or cannot be listed.
 * - `check` (3): the command ran and a check it was asked to make failed (`eval --fail-under`,
 *   `inspect --fail-on-findings`).
 * - `interrupted` (130, the shell's code for Ctrl-C): SIGINT, SIGTERM or SIGHUP came while MCP
 *   servers were being read; they were stopped before the command exited.
 */
export const EXIT_CODES = { ok: 0, usage: 1, input: 2, check: 3, interrupted: 130 } as const;

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/**
 * An error for people: its message is one line naming the file (or server) and what is wrong,
 * printed without a stack trace, and the command exits with `exitCode`.
 */
export class CliError extends Error {
  /** The exit code the command ends with. */
  readonly exitCode: ExitCode;

  /**
   * @param message - one line: what (the file, JSON path or server) and what is wrong with it
   * @param options - the exit code (default {@link EXIT_CODES}.input) and the underlying error
   */
  constructor(message: string, options: { exitCode?: ExitCode; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_CODES.input;
  }
}

/** A wrong command line: exit code {@link EXIT_CODES}.usage, printed with a hint to `--help`. */
export class UsageError extends CliError {
  /** @param message - what is wrong with the command line */
  constructor(message: string) {
    super(message, { exitCode: EXIT_CODES.usage });
    this.name = 'UsageError';
  }
}
