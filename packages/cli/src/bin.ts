#!/usr/bin/env node
import { main } from './cli/main';

const code = await main(process.argv.slice(2));
// Where stdout is an asynchronous pipe (macOS), a large --json document could still be in
// flight: wait until both streams have flushed what was written.
await Promise.all(
  [process.stdout, process.stderr].map(
    (stream) => new Promise<void>((resolve) => stream.write('', () => resolve())),
  ),
);
// MCP servers started for a source are stopped by now; exit even if a library left a timer behind.
process.exit(code);
