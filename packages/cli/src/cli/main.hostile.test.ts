/**
 * Hostile input, table-driven, for the `tool-search` command line (`main(argv)`) and the catalog
 * files it reads. Each row states its outcome (an exit code and what the output says), finishes
 * within its stated time (the test's timeout: a hang guard, never a speed gate), and leaves the
 * catalog file and the process as they were.
 */
import { readFile } from 'node:fs/promises';
import {
  LONE_SURROGATES,
  MANY_NAMES,
  ONE_MB,
  ONLY_EMOJI,
  ONLY_PUNCTUATION,
  PROTOTYPE_NAMES,
  REGEX_FRAGMENT,
  SQL_FRAGMENT,
  TEN_MB,
} from 'tool-search-testing/hostile-inputs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICE_QUERIES, OFFICE_TOOLS } from '../test-utils/catalogs';
import { type CliRun, runCli, temporaryDir } from '../test-utils/run-cli';
import { EXIT_CODES } from './cli-error';

/** Hang guards: most rows answer at once; rows that read or index megabytes get longer. */
const QUICK = 10_000;
const SLOW = 60_000;
/** Output of a refused command line stays short: a hostile argument is never echoed at length. */
const MAX_ERROR_OUTPUT = 4_000;

let temp: Awaited<ReturnType<typeof temporaryDir>>;
/** Files the rows name, by placeholder. */
const files: Record<string, string> = {};

beforeAll(async () => {
  temp = await temporaryDir();
  files.catalog = await temp.write('office.json', { tools: OFFICE_TOOLS, queries: OFFICE_QUERIES });
  files.notJson = await temp.write('not-json.json', '{"tools": [');
  files.huge = await temp.write(
    'huge.json',
    JSON.stringify({ tools: [{ id: 'big', description: TEN_MB }, ...OFFICE_TOOLS] }),
  );
  files.prototypeKeys = await temp.write(
    'prototype-keys.json',
    `{"__proto__": {"tools": [{"id": "smuggled"}]}, "constructor": 1, "tools": ${JSON.stringify([
      ...OFFICE_TOOLS,
      ...PROTOTYPE_NAMES.map((id) => ({ id, description: `The ${id} tool of a prototype` })),
    ])}}`,
  );
  // Written as text: JSON.stringify cannot nest 10,000 levels, JSON.parse can.
  const deep = `${'{"type":"object","properties":{"level":'.repeat(10_000)}{"type":"string"}${'}}'.repeat(10_000)}`;
  files.deep = await temp.write(
    'deep.json',
    `{"tools": [{"id": "deep", "description": "a deep schema", "inputSchema": ${deep}}, ${JSON.stringify(OFFICE_TOOLS).slice(1)}}`,
  );
  files.manyIds = await temp.write('many.json', {
    tools: MANY_NAMES.slice(0, 20_000).map((id) => ({ id, description: `Tool ${id}` })),
  });
  files.duplicates = await temp.write('duplicates.json', {
    tools: [...OFFICE_TOOLS, ...OFFICE_TOOLS],
  });
  files.badTools = await temp.write('bad-tools.json', { tools: [42, null, { id: 7 }] });
  files.bom = await temp.write('bom.json', `\uFEFF${JSON.stringify({ tools: OFFICE_TOOLS })}`);
});
afterAll(() => temp.dispose());

interface Row {
  argv: string[];
  /** The exit code, and what stdout or stderr must say. */
  code: number;
  stdout?: RegExp;
  stderr?: RegExp;
  /** Checks on the whole run. */
  check?: (run: CliRun) => void;
  within?: number;
}

/** Replaces `<name>` placeholders with the files made above. */
const argvOf = (row: Row) =>
  row.argv.map((arg) => arg.replace(/^<(\w+)>$/, (_, name) => files[name]!));
const label = (row: Row) =>
  row.argv
    .map((arg) => (arg.length > 40 ? `<${arg.length.toLocaleString('en-US')} chars>` : arg))
    .join(' ') || '(nothing)';

const shortError = (run: CliRun) => {
  expect(run.stdout).toBe('');
  expect(run.stderr.length).toBeLessThan(MAX_ERROR_OUTPUT);
};

const ROWS: Row[] = [
  // Commands named like Object.prototype members are unknown commands, like any other.
  ...PROTOTYPE_NAMES.map(
    (command): Row => ({
      argv: [command],
      code: EXIT_CODES.usage,
      stderr: new RegExp(`unknown command "${command}"`),
      check: shortError,
    }),
  ),
  ...PROTOTYPE_NAMES.map(
    (command): Row => ({
      argv: [command, '--help'],
      code: EXIT_CODES.usage,
      stderr: /unknown command/,
      check: shortError,
    }),
  ),
  // `help <topic>` with an unknown topic prints the main usage, never an object's internals.
  ...PROTOTYPE_NAMES.map(
    (topic): Row => ({
      argv: ['help', topic],
      code: EXIT_CODES.ok,
      stdout: /^Usage: tool-search <command>/,
      check: (run) => expect(run.stdout).not.toMatch(/\[object Object\]|native code|function/),
    }),
  ),
  { argv: [''], code: EXIT_CODES.usage, stderr: /unknown command ""/, check: shortError },
  { argv: [ONE_MB], code: EXIT_CODES.usage, stderr: /unknown command/, check: shortError },
  // Flags.
  ...['--__proto__', '--constructor', '--hasOwnProperty', '---x'].map(
    (flag): Row => ({
      argv: ['search', '<catalog>', 'weather', flag],
      code: EXIT_CODES.usage,
      stderr: /Unknown option/,
      check: shortError,
    }),
  ),
  // `-` and `--` are words of the query, as in any command line.
  ...['-', '--'].map(
    (word): Row => ({ argv: ['search', '<catalog>', 'weather', word], code: EXIT_CODES.ok }),
  ),
  ...['NaN', '-1', '1e309', '', ' ', '5.5', LONE_SURROGATES].map(
    (value): Row => ({
      argv: ['search', '<catalog>', 'weather', '--top-k', value],
      code: EXIT_CODES.usage,
      // `-1` reads as an option to parseArgs, which says so.
      stderr: /--top-k must be an integer >= 1|'--top-k' argument is ambiguous/,
      check: shortError,
    }),
  ),
  {
    argv: ['search', '<catalog>', 'weather', '--top-k', ONE_MB],
    code: EXIT_CODES.usage,
    stderr: /--top-k must be an integer >= 1/,
    check: shortError,
  },
  {
    argv: ['search', '<catalog>', 'weather', '--weight', '__proto__=2'],
    code: EXIT_CODES.usage,
    stderr: /--weight: unknown field "__proto__"/,
  },
  {
    argv: ['search', '<catalog>', 'weather', '--weight', 'constructor=2'],
    code: EXIT_CODES.usage,
    stderr: /--weight: unknown field "constructor"/,
  },
  {
    argv: ['search', 'x', '--mcp', `node "${'a'.repeat(100)}`],
    code: EXIT_CODES.usage,
    stderr: /unclosed " quote/,
  },
  {
    argv: ['search', 'weather', ...MANY_NAMES.map((name) => `--${name}`)],
    code: EXIT_CODES.usage,
    stderr: /Unknown option '--tool_0'/,
    check: shortError,
  },
  // Queries: what a person may type, answered with the catalog's tools or none.
  ...(
    [
      ['1 MB', ONE_MB, SLOW],
      ['10 MB', TEN_MB, SLOW],
      ['lone surrogates', LONE_SURROGATES, QUICK],
      ['punctuation', ONLY_PUNCTUATION, QUICK],
      ['emoji', ONLY_EMOJI, QUICK],
      ['a regex fragment', REGEX_FRAGMENT, QUICK],
      ['an SQL fragment', SQL_FRAGMENT, QUICK],
      ['__proto__', '__proto__', QUICK],
      ['constructor', 'constructor', QUICK],
    ] as const
  ).map(
    ([, query, within]): Row => ({
      argv: ['search', '<catalog>', query, '--json'],
      code: EXIT_CODES.ok,
      check: (run) => {
        const hits = JSON.parse(run.stdout) as { id: string }[];
        const ids = OFFICE_TOOLS.map((tool) => tool.id);
        for (const hit of hits) expect(ids).toContain(hit.id);
      },
      within,
    }),
  ),
  {
    argv: ['search', '<catalog>', ONE_MB],
    code: EXIT_CODES.ok,
    // A query nothing matches is echoed cut, not whole.
    check: (run) => expect(run.stdout.length).toBeLessThan(10_000),
    within: SLOW,
  },
  // Catalog files a person may point at.
  { argv: ['search', '<notJson>', 'weather'], code: EXIT_CODES.input, stderr: /is not valid JSON/ },
  { argv: ['search', '<badTools>', 'weather'], code: EXIT_CODES.input, stderr: /\$\.tools\[0\]/ },
  {
    argv: ['search', `${'x'.repeat(5_000)}.json`, 'weather'],
    code: EXIT_CODES.input,
    stderr: /cannot be read|no such file/,
  },
  { argv: ['search', '/', 'weather'], code: EXIT_CODES.input, stderr: /is a folder/ },
  {
    argv: ['search', '<bom>', 'weather', '--json'],
    code: EXIT_CODES.ok,
    check: (run) => expect((JSON.parse(run.stdout) as { id: string }[])[0]?.id).toBe('get_weather'),
  },
  {
    argv: ['search', '<huge>', 'weather', '--json'],
    code: EXIT_CODES.ok,
    check: (run) => expect((JSON.parse(run.stdout) as { id: string }[])[0]?.id).toBe('get_weather'),
    within: SLOW,
  },
  {
    argv: ['search', '<prototypeKeys>', 'prototype', '--json', '--top-k', '10'],
    code: EXIT_CODES.ok,
    check: (run) => {
      const ids = (JSON.parse(run.stdout) as { id: string }[]).map((hit) => hit.id);
      expect(ids).toEqual(expect.arrayContaining(PROTOTYPE_NAMES));
      expect(ids).not.toContain('smuggled');
    },
  },
  {
    argv: ['inspect', '<prototypeKeys>', '--json'],
    code: EXIT_CODES.ok,
    check: (run) => expect(JSON.parse(run.stdout)).toMatchObject({ tools: 8 }),
  },
  {
    argv: ['search', '<deep>', 'deep schema', '--json'],
    code: EXIT_CODES.ok,
    check: (run) => expect((JSON.parse(run.stdout) as { id: string }[])[0]?.id).toBe('deep'),
    within: SLOW,
  },
  {
    // Searchable (the index reads schemas to a bounded depth), but not countable: no model API
    // could be sent a definition JSON.stringify cannot write.
    argv: ['inspect', '<deep>', '--json'],
    code: EXIT_CODES.input,
    stderr: /deep: its definition cannot be serialized to JSON/,
    within: SLOW,
  },
  {
    argv: ['inspect', '<duplicates>', '--json'],
    code: EXIT_CODES.input,
    stderr: /\$\.tools\[4\]\.id: "get_weather" is also the id of \$\.tools\[0\]/,
  },
  {
    argv: ['search', '<catalog>', 'weather', '--b', '__proto__=0.5'],
    code: EXIT_CODES.usage,
    stderr: /--b: unknown field "__proto__"/,
  },
  {
    argv: ['search', '<manyIds>', 'tool_19999', '--json', '--top-k', '1'],
    code: EXIT_CODES.ok,
    check: (run) => expect((JSON.parse(run.stdout) as { id: string }[])[0]?.id).toBe('tool_19999'),
    within: SLOW,
  },
  {
    argv: ['eval', '<prototypeKeys>', '--json'],
    code: EXIT_CODES.input,
    stderr: /queries/,
  },
];

describe('tool-search main under hostile input', () => {
  for (const row of ROWS) {
    it(
      label(row),
      async () => {
        const catalogBefore = await readFile(files.catalog!, 'utf8');
        const run = await runCli(argvOf(row));
        expect({ code: run.code, stderr: run.stderr.slice(0, 300) }).toMatchObject({
          code: row.code,
        });
        if (row.stdout) expect(run.stdout).toMatch(row.stdout);
        if (row.stderr) expect(run.stderr).toMatch(row.stderr);
        row.check?.(run);
        // Nothing written, nothing polluted.
        expect(await readFile(files.catalog!, 'utf8')).toBe(catalogBefore);
        expect(({} as Record<string, unknown>).tools).toBeUndefined();
      },
      row.within ?? QUICK,
    );
  }
});
