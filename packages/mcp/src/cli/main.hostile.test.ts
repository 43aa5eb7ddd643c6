/**
 * Hostile input, table-driven, for the `tool-search-mcp` command: its arguments (`main(argv)`)
 * and the lines a client writes to it over stdio. Each row states its outcome (an exit code and
 * what stderr says; an answer or a skipped line), finishes within its stated time (the test's
 * timeout: a hang guard, never a speed gate), and binds nothing: a refused command line never
 * listens, and a line the gateway cannot read leaves the session answering.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { MANY_NAMES, ONE_MB, PROTOTYPE_NAMES } from 'tool-search-testing/hostile-inputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { temporaryDir } from '../test-utils/harness';
import { main } from './main';

const QUICK = 15_000;
const SLOW = 60_000;
/** What a refused command line prints stays short: a hostile argument is not echoed at length. */
const MAX_ERROR_OUTPUT = 6_000;

/** A writable that keeps what is written. */
function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

let temp: Awaited<ReturnType<typeof temporaryDir>>;
let config: string;

beforeAll(async () => {
  temp = await temporaryDir();
  config = join(temp.dir, 'gateway.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, toolSearch: { enabled: true } }));
});
afterAll(() => temp.remove());

interface ArgvRow {
  argv: (config: string) => string[];
  /** Shown in the test's name. */
  input: string;
  code: number;
  stderr: RegExp;
  env?: Record<string, string>;
  within?: number;
}

/** Hosts beyond loopback, in the forms people and attackers write them. */
const BEYOND_LOOPBACK = [
  '0.0.0.0',
  '::',
  '',
  '10.0.0.1',
  '127.0.0.1.nip.io',
  'localhost.example.com',
  '::ffff:127.0.0.1',
];

const ARGV_ROWS: ArgvRow[] = [
  { input: 'nothing', argv: () => [], code: 2, stderr: /--config FILE is required/ },
  {
    input: '--config without its value',
    argv: () => ['--config'],
    code: 2,
    stderr: /argument missing/,
  },
  ...['abc', '-1', '70000', '1e3', '', ' ', '0x50', '3.5', ONE_MB].map(
    (port): ArgvRow => ({
      input: `--port ${port.length > 40 ? 'of 1 MB' : JSON.stringify(port)}`,
      argv: (file) => ['--config', file, `--port=${port}`],
      code: 2,
      stderr: /--port must be an integer from 0 to 65535/,
    }),
  ),
  ...['0', 'NaN', '1e309', '-5', 'Infinity'].map(
    (timeout): ArgvRow => ({
      input: `--connect-timeout ${timeout}`,
      argv: (file) => ['--config', file, `--connect-timeout=${timeout}`],
      code: 2,
      stderr: /--connect-timeout must be a positive number of milliseconds/,
    }),
  ),
  ...PROTOTYPE_NAMES.map(
    (name): ArgvRow => ({
      input: `--expose ${name}`,
      argv: (file) => ['--config', file, '--expose', name],
      code: 2,
      stderr: /--expose must be "tools" or "proxy"/,
    }),
  ),
  ...PROTOTYPE_NAMES.map(
    (name): ArgvRow => ({
      input: `--${name}`,
      argv: (file) => ['--config', file, `--${name}`],
      code: 2,
      stderr: /Unknown option/,
    }),
  ),
  {
    input: '100,000 unknown flags',
    argv: (file) => ['--config', file, ...MANY_NAMES.map((name) => `--${name}`)],
    code: 2,
    stderr: /Unknown option '--tool_0'/,
  },
  {
    input: '--host without --port',
    argv: (file) => ['--config', file, '--host', '0.0.0.0'],
    code: 2,
    stderr: /--host needs --port/,
  },
  // Nothing binds beyond loopback without a token, however the host is written.
  ...BEYOND_LOOPBACK.map(
    (host): ArgvRow => ({
      input: `--port 0 --host ${JSON.stringify(host)} without a token`,
      argv: (file) => ['--config', file, '--port', '0', '--host', host],
      code: 1,
      stderr: /beyond loopback\) needs a bearer token in \$TOOL_SEARCH_MCP_TOKEN/,
    }),
  ),
  // The token is read from the named variable only: never from an object's own members.
  ...PROTOTYPE_NAMES.map(
    (name): ArgvRow => ({
      input: `--token-env ${name} beyond loopback`,
      argv: (file) => ['--config', file, '--port', '0', '--host', '0.0.0.0', '--token-env', name],
      code: 1,
      stderr: new RegExp(`needs a bearer token in \\$${name}`),
    }),
  ),
  {
    input: 'an empty token beyond loopback',
    argv: (file) => ['--config', file, '--port', '0', '--host', '0.0.0.0'],
    env: { TOOL_SEARCH_MCP_TOKEN: '' },
    code: 1,
    stderr: /needs a bearer token/,
  },
  // Config files.
  {
    input: 'a config that does not exist',
    argv: () => ['--config', join(temp.dir, 'missing.json')],
    code: 1,
    stderr: /invalid config: .*missing\.json: \$: cannot be read \(ENOENT\)/,
  },
  {
    input: 'a config path of 1 MB',
    argv: () => ['--config', `${'c'.repeat(2 ** 20)}.json`],
    code: 1,
    stderr: /cannot be read/,
  },
];

describe('tool-search-mcp main under hostile arguments', () => {
  for (const row of ARGV_ROWS) {
    it(
      `refuses ${row.input}`,
      async () => {
        const stderr = collector();
        const stdout = collector();
        const code = await main(row.argv(config), {
          stderr: stderr.stream,
          stdout: stdout.stream,
          env: row.env ?? {},
          stdin: new PassThrough(),
        });
        expect({ code, stderr: stderr.text().slice(0, 300) }).toMatchObject({ code: row.code });
        expect(stderr.text()).toMatch(row.stderr);
        expect(stderr.text()).not.toMatch(/listening on http/);
        expect(stdout.text()).toBe('');
        // A refused argument is quoted, not echoed at length (the usage text follows it).
        if (!row.input.includes('path of 1 MB'))
          expect(stderr.text().length).toBeLessThan(MAX_ERROR_OUTPUT);
      },
      row.within ?? QUICK,
    );
  }
});

/** A stdio session with `main`: lines in, JSON-RPC messages out, logs kept. */
async function startStdio(upstream: CountingUpstream) {
  const file = join(temp.dir, 'stdio.json');
  await writeFile(
    file,
    JSON.stringify({
      mcpServers: { up: { url: upstream.url.href } },
      toolSearch: { enabled: true },
    }),
  );
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = collector();
  const messages: { id?: unknown; result?: unknown; error?: { code: number } }[] = [];
  const waiters = new Map<unknown, () => void>();
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += String(chunk);
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline)) as (typeof messages)[number];
      buffered = buffered.slice(newline + 1);
      messages.push(message);
      waiters.get(message.id)?.();
      newline = buffered.indexOf('\n');
    }
  });
  const running = main(['--config', file, '--no-cache'], {
    stdin,
    stdout,
    stderr: stderr.stream,
    env: {},
  });
  let nextId = 1;
  const send = (line: string) => stdin.write(`${line}\n`);
  /** Sends a request and resolves with its answer. */
  const ask = (method: string, params: unknown) => {
    const id = nextId++;
    const answered = new Promise<(typeof messages)[number]>((resolve) => {
      waiters.set(id, () => resolve(messages.find((message) => message.id === id)!));
    });
    send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answered;
  };
  await ask('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { stdin, stderr, messages, running, send, ask };
}

describe('tool-search-mcp over stdio under hostile lines', () => {
  let upstream: CountingUpstream;

  beforeAll(async () => {
    upstream = await startCountingUpstream(['echo']);
  });
  afterAll(async () => {
    await upstream.close();
  });

  it(
    'answers lines that are not JSON-RPC with JSON-RPC errors, answers wrong requests with errors, and keeps serving',
    async () => {
      const session = await startStdio(upstream);
      try {
        const before = session.messages.length;
        for (const line of [
          'hello',
          '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
          '{}',
          '42',
          '[]',
          '{"__proto__":{"method":"tools/list"},"jsonrpc":"2.0","id":99}',
          '\uD800',
          '',
        ])
          session.send(line);
        const list = await session.ask('tools/list', {});
        // JSON-RPC 2.0's answers: Parse error (-32700) for a line that is not JSON, Invalid
        // Request (-32600) for JSON that is not a message, with the id when it has a usable one.
        const answers = session.messages.slice(before, -1) as {
          id: unknown;
          error?: { code: number };
        }[];
        expect(answers.map(({ id, error }) => [id, error?.code])).toEqual([
          [null, -32700],
          [null, -32700],
          [null, -32600],
          [null, -32600],
          [null, -32600],
          [99, -32600],
          [null, -32700],
        ]);
        expect(session.messages.at(-1)).toEqual(list);
        expect(list.result).toMatchObject({
          tools: [{ name: 'search_tools' }, { name: 'load_tool' }, { name: 'call_tool' }],
        });
        expect((await session.ask('tools/destroy', {})).error?.code).toBe(-32601);
        expect((await session.ask('tools/call', { name: 42 })).error?.code).toBe(-32602);
        const proto = await session.ask('tools/call', { name: '__proto__', arguments: {} });
        expect(proto.result).toMatchObject({ isError: true });
        const many = await session.ask('tools/call', {
          name: 'load_tool',
          arguments: { toolNames: MANY_NAMES },
        });
        expect(many.result).toMatchObject({ isError: true, structuredContent: { success: false } });
        const query = await session.ask('tools/call', {
          name: 'search_tools',
          arguments: { query: ONE_MB },
        });
        expect(query.result).toMatchObject({ structuredContent: { results: [] } });
        expect(upstream.executions).toEqual([]);
        // Each line it could not read is in the log, cut to one short line.
        const skipped = session.stderr
          .text()
          .split('\n')
          .filter((line) => line.includes('] stdio: answered a client line'));
        expect(skipped.length).toBeGreaterThan(0);
        for (const line of skipped) expect(line.length).toBeLessThan(400);
      } finally {
        session.stdin.end();
        expect(await session.running).toBe(0);
      }
    },
    SLOW,
  );

  it(
    'ends the session with a log line when a client sends a line over 10 MiB',
    async () => {
      const session = await startStdio(upstream);
      session.send(
        `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_tools","arguments":{"query":"${'x'.repeat(11 * 2 ** 20)}"}}}`,
      );
      // The MCP SDK's stdio transport refuses messages over 10 MiB and closes: the gateway stops.
      expect(await session.running).toBe(0);
      expect(session.stderr.text()).toMatch(
        /session [\w-]{1,8}…: ReadBuffer exceeded maximum size of 10485760 bytes/,
      );
    },
    SLOW,
  );
});
