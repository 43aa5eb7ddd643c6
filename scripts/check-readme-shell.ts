// Runs every shell block of the documentation marked ```sh run, as a reader would type it in the
// repository's root: with bash, stopping at the first command that fails (-e, pipefail), each
// under a time limit past which its whole process group is killed and the block fails. Such a
// block must finish on its own and offline (no download, no server left waiting for input);
// unmarked ```sh blocks are shown, never run. The markdown files are those check-readme-code.ts
// reads. `node --experimental-strip-types scripts/check-readme-shell.ts [--list]`
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { documentationFiles, runnableShellBlocks, type ShellBlock } from './lib/docs.ts';

/**
 * A block's time limit. Generous: the first `npm run` on a fresh clone fetches Node 22 and pnpm
 * and installs the workspace (about a minute on a good line), and CI shares two cores.
 */
const BLOCK_TIMEOUT_MS = 240_000;
/** Characters of a failed block's output shown: its end says what went wrong. */
const SHOWN_OUTPUT = 4_000;

const root = resolve(import.meta.dirname, '..');
const blocks = documentationFiles(root).flatMap((file) => runnableShellBlocks(root, file));

if (process.argv.includes('--list')) {
  for (const block of blocks) console.log(`${block.file}:${block.line}\n${block.code}\n`);
  process.exit(0);
}

const failures: string[] = [];
for (const block of blocks) {
  const started = performance.now();
  const outcome = await run(block);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const where = `${block.file}:${block.line}`;
  if (outcome.ok) {
    console.log(`check-readme-shell: ${where} ran (${seconds} s)`);
    continue;
  }
  const output =
    outcome.output.length > SHOWN_OUTPUT
      ? `…${outcome.output.slice(-SHOWN_OUTPUT)}`
      : outcome.output;
  failures.push(
    `${where}: ${outcome.reason} after ${seconds} s\n${block.code}\n--- output\n${output}`,
  );
}
if (failures.length > 0) {
  console.error(failures.join('\n\n'));
  console.error(
    `\ncheck-readme-shell: ${failures.length} of ${blocks.length} runnable shell blocks failed`,
  );
  process.exit(1);
}
console.log(`check-readme-shell: ${blocks.length} runnable shell blocks ran as written`);

/** Runs one block with bash in the root; its output (stdout and stderr) is kept for a failure. */
function run(
  block: ShellBlock,
): Promise<{ ok: true } | { ok: false; reason: string; output: string }> {
  return new Promise((done) => {
    // As a reader's shell has it: no npm or pnpm script context from the command that runs this.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^(npm_|pnpm_|INIT_CWD$|PNPM_SCRIPT_SRC_DIR$)/i.test(name),
      ),
    );
    const child = spawn('bash', ['-e', '-u', '-o', 'pipefail', '-c', block.code], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout ends everything the block started.
      detached: true,
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-SHOWN_OUTPUT * 2);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }, BLOCK_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done({ ok: true });
      else if (signal === 'SIGKILL')
        done({ ok: false, reason: `did not finish within ${BLOCK_TIMEOUT_MS / 1000} s`, output });
      else done({ ok: false, reason: `exited with ${code ?? signal}`, output });
    });
  });
}
