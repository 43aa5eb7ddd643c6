import type { Readable } from 'node:stream';
import { main as gatewayMain } from 'tool-search-mcp';
import { EXIT_CODES, type ExitCode } from '../cli/cli-error';
import type { CliIo } from '../cli/cli-io';

/**
 * `tool-search serve`: the MCP gateway, run by `tool-search-mcp`'s own `main` with the same
 * arguments. Its exit codes are mapped to this command's: the gateway's 2 (bad arguments) is a
 * usage error here (1), its 1 (a bad config, a failed start) is bad input here (2).
 */
export async function runServe(
  args: readonly string[],
  io: CliIo,
  options: { stdin?: Readable | undefined; signal?: AbortSignal | undefined },
): Promise<ExitCode> {
  const code = await gatewayMain(args, {
    stdout: io.stdout,
    stderr: io.stderr,
    env: io.env,
    ...(options.stdin && { stdin: options.stdin }),
    ...(options.signal && { signal: options.signal }),
  });
  if (code === 0) return EXIT_CODES.ok;
  return code === 2 ? EXIT_CODES.usage : EXIT_CODES.input;
}
