#!/usr/bin/env node
import { main } from './cli/main';

const code = await main(process.argv.slice(2));
// Upstream children and sockets are closed by now; exit even if a library left a timer behind.
process.exit(code);
