/**
 * Hostile input, table-driven, for the gateway's config: `parseGatewayConfig` (a parsed object)
 * and `loadGatewayConfig` (a file). Each row states its outcome (a config, or a
 * `GatewayConfigError` naming the JSON path and what is wrong, in a bounded message), finishes
 * within its stated time (the test's timeout: a hang guard, never a speed gate), and leaves the
 * process untouched (no prototype changed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LONE_SURROGATES,
  MANY_NAMES,
  ONE_MB,
  PROTOTYPE_NAMES,
  TEN_MB,
} from 'tool-search-testing/hostile-inputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDir } from '../test-utils/harness';
import { GatewayConfigError } from './config-error';
import type { GatewayConfig } from './gateway-config';
import { loadGatewayConfig, parseGatewayConfig } from './parse-gateway-config';

const QUICK = 10_000;
const SLOW = 60_000;
/** An error message never quotes a hostile value at length. */
const MAX_MESSAGE = 1_000;

const STDIO = { command: 'node', args: ['server.js'] };

type Outcome =
  /** A config; the check says what it must hold. */
  | { config: (config: GatewayConfig) => void }
  /** A GatewayConfigError whose message matches. */
  | { error: RegExp };

interface Row {
  input: string;
  /** The parsed JSON (an object built by JSON.parse, so `__proto__` keys are own keys). */
  value: () => unknown;
  outcome: Outcome;
  within?: number;
}

const json = (text: string) => () => JSON.parse(text) as unknown;

const ROWS: Row[] = [
  ...(
    [
      ['null', null],
      ['an array', []],
      ['a number', 42],
      ['a 1 MB string', ONE_MB],
    ] as const
  ).map(
    ([input, value]): Row => ({
      input,
      value: () => value,
      outcome: { error: /config: \$: must be an object, got/ },
    }),
  ),
  {
    input: 'an empty object',
    value: () => ({}),
    outcome: { error: /needs an "mcpServers" object/ },
  },
  {
    input: 'mcpServers smuggled under a JSON key __proto__',
    value: json(`{"__proto__": {"mcpServers": {"evil": ${JSON.stringify(STDIO)}}}}`),
    outcome: { error: /needs an "mcpServers" object/ },
  },
  {
    input: 'servers named like prototype members',
    value: json(
      `{"mcpServers": {${PROTOTYPE_NAMES.map((name) => `"${name}": ${JSON.stringify(STDIO)}`).join(', ')}}}`,
    ),
    outcome: {
      config: (config) => {
        expect(Object.keys(config.mcpServers)).toEqual(PROTOTYPE_NAMES);
        for (const name of PROTOTYPE_NAMES)
          expect(Object.getOwnPropertyDescriptor(config.mcpServers, name)?.value).toEqual(STDIO);
        expect(Object.getPrototypeOf(config.mcpServers)).toBe(Object.prototype);
      },
    },
  },
  {
    input: 'a command smuggled under an entry key __proto__',
    value: json('{"mcpServers": {"a": {"__proto__": {"command": "evil"}}}}'),
    outcome: { error: /\$\.mcpServers\.a: needs either "command"/ },
  },
  {
    input: 'env keys named like prototype members',
    value: json(
      '{"mcpServers": {"a": {"command": "node", "env": {"__proto__": "x", "constructor": "y", "PATH": "/bin"}}}}',
    ),
    outcome: {
      config: (config) => {
        const env = (config.mcpServers.a as { env: Record<string, string> }).env;
        expect(Object.keys(env)).toEqual(['__proto__', 'constructor', 'PATH']);
        expect(Object.getOwnPropertyDescriptor(env, '__proto__')?.value).toBe('x');
      },
    },
  },
  {
    input: 'an env value that is not a string, under a key __proto__',
    value: json('{"mcpServers": {"a": {"command": "node", "env": {"__proto__": {"x": 1}}}}}'),
    outcome: { error: /\$\.mcpServers\.a\.env\.__proto__: must be a string, got an object/ },
  },
  {
    input: 'a 1 MB server name',
    value: () => ({ mcpServers: { [ONE_MB]: { command: 42 } } }),
    outcome: { error: /\.command: must be a non-empty string, got number 42/ },
  },
  {
    input: 'a server name of lone surrogates',
    value: () => ({ mcpServers: { [LONE_SURROGATES]: STDIO } }),
    outcome: {
      config: (config) => expect(Object.keys(config.mcpServers)).toEqual([LONE_SURROGATES]),
    },
  },
  ...['', '   '].map(
    (name): Row => ({
      input: `a server named ${JSON.stringify(name)}`,
      value: () => ({ mcpServers: { [name]: STDIO } }),
      outcome: { error: /a server name must not be empty/ },
    }),
  ),
  {
    input: '100,000 args',
    value: () => ({ mcpServers: { a: { command: 'node', args: MANY_NAMES } } }),
    outcome: {
      config: (config) =>
        expect((config.mcpServers.a as { args: string[] }).args).toHaveLength(100_000),
    },
  },
  {
    input: '100,000 args, the last a number',
    value: () => ({ mcpServers: { a: { command: 'node', args: [...MANY_NAMES, 7] } } }),
    outcome: { error: /\$\.mcpServers\.a\.args\[100000\]: must be a string, got number 7/ },
  },
  ...['javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/mcp'].map(
    (url): Row => ({
      input: `the url ${url}`,
      value: () => ({ mcpServers: { a: { url } } }),
      outcome: { error: /\$\.mcpServers\.a\.url: must be an http: or https: URL/ },
    }),
  ),
  {
    input: 'a 1 MB url that is not a URL',
    value: () => ({ mcpServers: { a: { url: `not a url ${ONE_MB}` } } }),
    outcome: { error: /\$\.mcpServers\.a\.url: is not a URL/ },
  },
  {
    input: 'a command and a url',
    value: () => ({ mcpServers: { a: { command: 'node', url: 'http://127.0.0.1/mcp' } } }),
    outcome: { error: /needs either "command" \(a program to start\) or "url"/ },
  },
  ...(
    [
      ['topK 0', { topK: 0 }, /toolSearch\.topK: must be an integer >= 1/],
      ['topK 1.5', { topK: 1.5 }, /toolSearch\.topK: must be an integer >= 1/],
      ['topK "5"', { topK: '5' }, /toolSearch\.topK: must be an integer >= 1, got the string "5"/],
      ['maxLoadedTools 0', { maxLoadedTools: 0 }, /maxLoadedTools: must be an integer >= 1/],
      ['minScore "high"', { minScore: 'high' }, /toolSearch\.minScore: must be a number/],
      [
        'expose "__proto__"',
        { expose: '__proto__' },
        /toolSearch\.expose: must be "tools" or "proxy"/,
      ],
      ['autoLoad "yes"', { autoLoad: 'yes' }, /toolSearch\.autoLoad: must be true or false/],
      ['alwaysLoaded of numbers', { alwaysLoaded: [1] }, /alwaysLoaded\[0\]: must be a string/],
    ] as const
  ).map(
    ([input, toolSearch, error]): Row => ({
      input: `toolSearch ${input}`,
      value: () => ({ mcpServers: {}, toolSearch }),
      outcome: { error },
    }),
  ),
  {
    input: 'toolSearch with 100,000 pinned names',
    value: () => ({ mcpServers: {}, toolSearch: { alwaysLoaded: MANY_NAMES } }),
    outcome: { config: (config) => expect(config.toolSearch?.alwaysLoaded).toHaveLength(100_000) },
  },
  {
    input: 'toolSearch keys named like prototype members',
    value: json('{"mcpServers": {}, "toolSearch": {"__proto__": {"topK": 1}, "constructor": 2}}'),
    outcome: { config: (config) => expect(config.toolSearch).toEqual({}) },
  },
  ...(
    [
      [
        'type "__proto__"',
        { type: '__proto__', url: 'redis://x' },
        /storage\.type: must be "redis"/,
      ],
      [
        'a keyPrefix with braces',
        { type: 'redis', url: 'redis://x', keyPrefix: '{a}' },
        /keyPrefix: must be a string without \{ or \}/,
      ],
      [
        'ttl -1',
        { type: 'redis', url: 'redis://x', ttl: -1 },
        /storage\.ttl: must be an integer >= 0/,
      ],
      [
        'an http url',
        { type: 'redis', url: 'http://x' },
        /storage\.url: must be a redis: or rediss: URL/,
      ],
    ] as const
  ).map(
    ([input, storage, error]): Row => ({
      input: `storage with ${input}`,
      value: () => ({ mcpServers: {}, storage }),
      outcome: { error },
    }),
  ),
];

describe('parseGatewayConfig under hostile input', () => {
  for (const row of ROWS) {
    it(
      `answers ${row.input}`,
      () => {
        const value = row.value();
        let result: ReturnType<typeof parseGatewayConfig> | undefined;
        let error: unknown;
        try {
          result = parseGatewayConfig(value);
        } catch (thrown) {
          error = thrown;
        }
        if ('error' in row.outcome) {
          expect(error).toBeInstanceOf(GatewayConfigError);
          expect((error as Error).message).toMatch(row.outcome.error);
          expect((error as Error).message.length).toBeLessThan(MAX_MESSAGE);
        } else {
          expect(error).toBeUndefined();
          row.outcome.config(result!.config);
        }
        expect(({} as Record<string, unknown>).mcpServers).toBeUndefined();
        expect(({} as Record<string, unknown>).topK).toBeUndefined();
      },
      row.within ?? QUICK,
    );
  }
});

describe('loadGatewayConfig under hostile files', () => {
  let temp: Awaited<ReturnType<typeof temporaryDir>>;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    temp = await temporaryDir();
    const write = async (name: string, text: string) => {
      files[name] = join(temp.dir, `${name}.json`);
      await writeFile(files[name]!, text);
    };
    await write('empty', '');
    await write('garbage', `{"mcpServers": ${'x'.repeat(10 * 2 ** 20)}`);
    await write(
      'deep',
      `{"mcpServers": {}, "toolSearch": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    );
    await write(
      'hugeDescription',
      JSON.stringify({ mcpServers: { a: { ...STDIO, description: TEN_MB } } }),
    );
    await write('bom', `\uFEFF${JSON.stringify({ mcpServers: {} })}`);
    files.folder = join(temp.dir, 'folder.json');
    await mkdir(files.folder);
  });
  afterAll(() => temp.remove());

  it.each([
    ['a missing file', () => join(temp.dir, 'missing.json'), /cannot be read \(ENOENT\)/],
    ['a folder', () => files.folder!, /cannot be read \(EISDIR\)/],
    ['an empty file', () => files.empty!, /is not valid JSON/],
    ['10 MB that is not JSON', () => files.garbage!, /is not valid JSON/],
    [
      'arrays nested 10,000 levels as toolSearch',
      () => files.deep!,
      /\$\.toolSearch: must be an object, got an array/,
    ],
    [
      'a path of 5,000 characters',
      () => join(temp.dir, `${'p'.repeat(5_000)}.json`),
      /cannot be read \(ENAMETOOLONG\)/,
    ],
  ])(
    'refuses %s naming the file and the problem',
    async (_input, file, problem) => {
      const refused = loadGatewayConfig(file());
      await expect(refused).rejects.toBeInstanceOf(GatewayConfigError);
      await expect(refused).rejects.toThrow(problem);
      const message = await refused.then(
        () => '',
        (error: Error) => error.message,
      );
      expect(message.length).toBeLessThan(MAX_MESSAGE + file().length);
    },
    SLOW,
  );

  it(
    'reads a config with a 10 MB description (a key MCP clients write, ignored)',
    async () => {
      const { config, warnings } = await loadGatewayConfig(files.hugeDescription!);
      expect(config.mcpServers.a).toEqual(STDIO);
      expect(warnings).toEqual([]);
    },
    SLOW,
  );

  it('reads a file that starts with a byte-order mark', async () => {
    await expect(loadGatewayConfig(files.bom!)).resolves.toMatchObject({
      config: { mcpServers: {} },
    });
  });
});
