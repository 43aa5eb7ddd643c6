/**
 * Gateway start-up with 1, 10 and 50 upstreams (`@modelcontextprotocol/server-memory`, each with
 * its own memory file, so each is its own cache entry): the time from spawning the built gateway
 * to its first `tools/list` answer, cold (empty manifest cache: every upstream is started and
 * listed, in parallel) and warm (manifests cached: no upstream is started). Each cell is the
 * median of `--runs` fresh processes.
 *
 * Usage: `pnpm bench:gateway:startup [--sizes 1,10,50] [--runs 3]`.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { count, markdownTable, ms, ratio } from './format';
import {
  connectStdio,
  GATEWAY_BIN,
  median,
  NPM_SERVERS,
  requireBuiltGateway,
  temporaryDir,
} from './gateway-shared';

function parseOptions(argv: readonly string[]): { sizes: number[]; runs: number } {
  const options = { sizes: [1, 10, 50], runs: 3 };
  for (let index = 0; index < argv.length; index += 2) {
    const value = argv[index + 1] ?? '';
    if (argv[index] === '--sizes') options.sizes = value.split(',').map(Number);
    else if (argv[index] === '--runs') options.runs = Number(value);
    else throw new Error(`unknown flag ${argv[index]}`);
  }
  return options;
}

/** Spawns the gateway, waits for its first tools/list, and reports the time and upstream starts. */
async function startOnce(
  config: string,
  cacheDir: string,
): Promise<{ ms: number; started: number }> {
  const began = performance.now();
  const { client, stderr } = await connectStdio(process.execPath, [
    GATEWAY_BIN,
    '--config',
    config,
    '--cache',
    cacheDir,
    '--connect-timeout',
    '60000',
  ]);
  await client.request({ method: 'tools/list', params: {} });
  const elapsed = performance.now() - began;
  await client.close();
  return { ms: elapsed, started: stderr().match(/: connected, /g)?.length ?? 0 };
}

async function main(): Promise<void> {
  requireBuiltGateway();
  const options = parseOptions(process.argv.slice(2));
  const dir = await temporaryDir();
  const rows: string[][] = [];
  for (const size of options.sizes) {
    const mcpServers: Record<string, unknown> = {};
    for (let index = 0; index < size; index++) {
      mcpServers[`memory${index}`] = {
        command: process.execPath,
        args: [NPM_SERVERS.memory],
        env: { MEMORY_FILE_PATH: path.join(dir, `memory-${index}.jsonl`) },
      };
    }
    const config = path.join(dir, `config-${size}.json`);
    await writeFile(config, JSON.stringify({ mcpServers }));
    const cold: number[] = [];
    const warm: number[] = [];
    let coldStarted = 0;
    let warmStarted = 0;
    for (let run = 0; run < options.runs; run++) {
      const cacheDir = path.join(dir, `cache-${size}-${run}`);
      const first = await startOnce(config, cacheDir);
      cold.push(first.ms);
      coldStarted = first.started;
      const second = await startOnce(config, cacheDir);
      warm.push(second.ms);
      warmStarted = second.started;
    }
    rows.push([
      count(size),
      ms(median(cold)),
      count(coldStarted),
      ms(median(warm)),
      count(warmStarted),
      ratio(median(warm), median(cold), 'faster', 'slower'),
    ]);
  }
  await rm(dir, { recursive: true, force: true });
  console.log(
    `## Gateway start-up to the first tools/list (median of ${options.runs} runs, node ${process.version})\n`,
  );
  console.log(
    markdownTable(
      [
        'upstreams',
        'cold ms',
        'upstreams started',
        'warm cache ms',
        'upstreams started',
        'warm vs cold',
      ],
      rows,
    ),
  );
}

await main();
