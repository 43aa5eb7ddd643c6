import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFICE_QUERIES, OFFICE_TOOLS } from '../test-utils/catalogs';
import { runCli, temporaryDir } from '../test-utils/run-cli';
import { EXIT_CODES } from './cli-error';

/** Stands for the catalog file in the table below, which is made before each test. */
const FILE = '<office.json>';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
let file: string;
beforeEach(async () => {
  temp = await temporaryDir();
  file = await temp.write('office.json', { tools: OFFICE_TOOLS, queries: OFFICE_QUERIES });
});
afterEach(() => temp.dispose());

describe('main', () => {
  it('prints help on stdout and exits 0; with no command, usage on stderr and exit 1', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(EXIT_CODES.ok);
    expect(help.stdout).toContain('Usage: tool-search <command>');
    expect(help.stdout).toContain('Exit codes: 0 done, 1 usage error, 2 bad input');
    for (const command of ['search', 'eval', 'inspect']) {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`Usage: tool-search ${command}`);
      expect((await runCli(['help', command])).stdout).toBe(run.stdout);
    }
    const bare = await runCli([]);
    expect(bare.code).toBe(EXIT_CODES.usage);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Usage: tool-search <command>');
  });

  it('prints its version', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it.each([
    [['frob'], 'unknown command "frob"'],
    [['search', FILE, 'x', '--frob'], "Unknown option '--frob'"],
    [['search', FILE], 'give a query to search for'],
    [['search'], 'give a catalog FILE, --mcp "COMMAND ARGS" or --config FILE, then the query'],
    [['search', FILE, 'x', '--top-k', '0'], '--top-k must be an integer >= 1, got "0"'],
    [['search', FILE, 'x', '--top-k'], "Option '--top-k <value>' argument missing"],
    [['search', FILE, 'x', '--weight', 'title=2'], '--weight: unknown field "title"'],
    [['search', FILE, 'x', '--weight', 'id'], '--weight takes FIELD=NUMBER'],
    [['search', FILE, 'x', '--b', '2'], '--b must be a number from 0 to 1, got "2"'],
    [['search', FILE, 'x', '--k1', '0'], '--k1 must be a number > 0, got "0"'],
    [['search', FILE, 'x', '--min-score', 'high'], '--min-score must be a number, got "high"'],
    [['search', FILE, 'x', '--cjk', 'words'], '--cjk must be bigram, segmenter or both'],
    [['search', 'x', '--mcp', 'node a.js', '--config', FILE], 'give either --mcp or --config'],
    [['search', 'x', '--mcp', 'node "a.js'], '--mcp has an unclosed " quote'],
    [['search', 'x', '--mcp', '  '], '--mcp needs a command'],
    [['inspect', FILE, '--name', 'x'], '--name goes with --mcp'],
    [['eval'], 'give a labelled FILE'],
    [['eval', FILE, FILE], 'eval takes one FILE, got 2'],
    [['eval', FILE, '--fail-under', '2'], '--fail-under must be a number from 0 to 1'],
    [['inspect'], 'give a catalog FILE'],
    [
      ['inspect', FILE, '--duplicate-threshold', '0'],
      '--duplicate-threshold must be a number from 0 to 1',
    ],
  ])('exits 1 for the usage error in %j', async (argv, message) => {
    // The catalog file exists: usage errors are found before it is read.
    const run = await runCli(argv.map((arg) => (arg === FILE ? file : arg)));
    expect(run.code).toBe(EXIT_CODES.usage);
    expect(run.stdout).toBe('');
    const [first, hint] = run.stderr.split('\n');
    expect(first).toBe(`tool-search: ${first!.slice('tool-search: '.length)}`);
    expect(first).toContain(message);
    expect(hint).toMatch(/^Run "tool-search (\w+ )?--help" for usage\.$/);
  });

  it('exits 2 with one line naming the file and no stack trace for bad input', async () => {
    const notJson = await temp.write('notes.txt', 'tools: none');
    const wrongField = await temp.write('wrong.json', { tools: [{ id: 'a', description: 42 }] });
    const cases: [string[], string][] = [
      [['search', `${temp.dir}/missing.json`, 'x'], `${temp.dir}/missing.json: no such file`],
      [['inspect', notJson], `${notJson}: is not valid JSON: `],
      [
        ['eval', wrongField],
        `${wrongField}: $.tools[0].description: must be a string, got number 42`,
      ],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv);
      expect(run.code).toBe(EXIT_CODES.input);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.stderr.startsWith(`tool-search: ${message}`)).toBe(true);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('shows the stack trace with --debug', async () => {
    const run = await runCli(['search', `${temp.dir}/missing.json`, 'x', '--debug']);
    expect(run.code).toBe(EXIT_CODES.input);
    expect(run.stderr).toContain('missing.json: no such file');
    expect(run.stderr).toMatch(/\n\s+at /);
  });

  it('exits 0 on success and 3 for a failed check', async () => {
    expect((await runCli(['search', file, 'weather'])).code).toBe(EXIT_CODES.ok);
    expect((await runCli(['eval', file, '--fail-under', '1'])).code).toBe(EXIT_CODES.check);
  });
});
