import type { Readable } from 'node:stream';
import { runEval } from '../commands/eval-command';
import { runInspect } from '../commands/inspect-command';
import { runSearch } from '../commands/search-command';
import { runServe } from '../commands/serve-command';
import { CliError, EXIT_CODES, UsageError } from './cli-error';
import { type CliIo, createIo, type TerminalStream } from './cli-io';
import { packageVersion } from './package-version';
import { COMMAND_USAGE, MAIN_USAGE } from './usage';

/** What {@link main} reads and writes instead of the process's own streams, for embedding and tests. */
export interface CliContext {
  /** Results: tables, or one JSON document with `--json`. */
  stdout?: TerminalStream;
  /** Errors, warnings, the progress bar (when it is a terminal) and, with `--debug`, logs. */
  stderr?: TerminalStream;
  /** `serve` over stdio reads MCP messages from here. */
  stdin?: Readable;
  env?: NodeJS.ProcessEnv;
  /** Stops `serve` (as SIGINT or SIGTERM do). */
  signal?: AbortSignal;
}

const COMMANDS = {
  search: runSearch,
  eval: runEval,
  inspect: runInspect,
} as const;

/**
 * The `tool-search` command: `search`, `eval`, `inspect` and `serve`.
 * @param argv - the arguments after the program name
 * @param context - streams and environment instead of the process's
 * @returns the exit code (see `EXIT_CODES`): 0 done, 1 usage error, 2 bad input, 3 a check failed
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[], context: CliContext = {}): Promise<number> {
  const [command, ...rest] = argv;
  const debug = argv.includes('--debug');
  const io = createIo({
    stdout: context.stdout ?? process.stdout,
    stderr: context.stderr ?? process.stderr,
    env: context.env ?? process.env,
    debug,
  });
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? rest[0] : undefined;
    // Own keys only: `help constructor` must not print Object's source.
    if (topic !== undefined && Object.hasOwn(COMMAND_USAGE, topic)) {
      io.print(COMMAND_USAGE[topic as keyof typeof COMMAND_USAGE]);
      return EXIT_CODES.ok;
    }
    if (command === undefined) {
      io.stderr.write(`${MAIN_USAGE}\n`);
      return EXIT_CODES.usage;
    }
    io.print(MAIN_USAGE);
    return EXIT_CODES.ok;
  }
  if (command === '--version' || command === '-v') {
    io.print(packageVersion());
    return EXIT_CODES.ok;
  }
  if (command === 'serve') {
    return runServe(rest, io, { stdin: context.stdin, signal: context.signal });
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    return report(
      new UsageError(`unknown command "${command}"; the commands are search, eval, inspect, serve`),
      io,
      undefined,
    );
  }
  const name = command as keyof typeof COMMANDS;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.print(COMMAND_USAGE[name]);
    return EXIT_CODES.ok;
  }
  try {
    return await COMMANDS[name](rest, io);
  } catch (error) {
    return report(error, io, name);
  }
}

/**
 * An error line is cut to this length: messages quote what was given (a command, a flag's value),
 * and a megabyte pasted by mistake should not flood the terminal.
 */
const MAX_ERROR_LINE = 1_000;

/** Prints an error for people (one line each, no stack unless `--debug`) and returns its exit code. */
function report(error: unknown, io: CliIo, command: string | undefined): number {
  if (isParseArgsError(error)) return report(new UsageError(error.message), io, command);
  if (error instanceof CliError) {
    for (const line of error.message.split('\n')) io.warn(cut(line));
    if (error instanceof UsageError)
      io.stderr.write(`Run "tool-search ${command ?? ''}${command ? ' ' : ''}--help" for usage.\n`);
    if (io.debug) {
      const stack = error.cause instanceof Error ? error.cause.stack : error.stack;
      if (stack) io.stderr.write(`${stack}\n`);
    }
    return error.exitCode;
  }
  const message = cut(error instanceof Error ? error.message : String(error));
  io.warn(`unexpected error: ${message}${io.debug ? '' : ' (--debug shows the stack trace)'}`);
  if (io.debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return EXIT_CODES.input;
}

/** Cuts the middle out of a long line: its start names the input, its end says what is wrong. */
function cut(line: string): string {
  if (line.length <= MAX_ERROR_LINE) return line;
  const half = Math.floor(MAX_ERROR_LINE / 2);
  return `${line.slice(0, half)} … ${line.slice(-half)}`;
}

/** `node:util` parseArgs throws TypeErrors with `ERR_PARSE_ARGS_*` codes for a wrong command line. */
function isParseArgsError(error: unknown): error is Error & { code: string } {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
