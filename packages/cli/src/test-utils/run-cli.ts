import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type CliContext, main } from '../cli/main';

/** A writable that keeps what is written; `isTTY` and `columns` as a terminal would set them. */
export function collector(terminal: { isTTY?: boolean; columns?: number } = {}) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    terminal,
  );
  return { stream, text: () => text };
}

/** What one in-process run of the command printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `main(argv)` in process with captured stdout and stderr.
 * @param options - `tty: true` makes stderr look like a terminal (the progress bar draws)
 */
export async function runCli(
  argv: readonly string[],
  options: { tty?: boolean; context?: CliContext } = {},
): Promise<CliRun> {
  const stdout = collector();
  const stderr = collector(options.tty ? { isTTY: true, columns: 100 } : {});
  const code = await main(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    ...options.context,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The package's folder (with a trailing slash). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The bin, run from source (tsx resolves the workspace's extensionless imports). */
export const CLI_BIN = `${PACKAGE_ROOT}src/bin.ts`;

/** Node arguments that run a workspace TypeScript entry point: tsx, and the packages' source. */
export const TS_NODE_ARGS = ['--import', 'tsx', '--conditions=tool-search-source'];

/** Entry points of the npm reference servers, started with node (no npx, no network). */
export const NPM_SERVERS = {
  everything: `${PACKAGE_ROOT}node_modules/@modelcontextprotocol/server-everything/dist/index.js`,
  filesystem: `${PACKAGE_ROOT}node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`,
  memory: `${PACKAGE_ROOT}node_modules/@modelcontextprotocol/server-memory/dist/index.js`,
} as const;

/** A temporary folder for one test, removed by `dispose`. */
export async function temporaryDir(): Promise<{
  dir: string;
  write: (name: string, content: unknown) => Promise<string>;
  dispose: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'tool-search-cli-'));
  return {
    dir,
    async write(name, content) {
      const file = join(dir, name);
      await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
      return file;
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
