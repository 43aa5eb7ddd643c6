import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFICE_QUERIES, OFFICE_TOOLS } from '../test-utils/catalogs';
import { runCli, temporaryDir } from '../test-utils/run-cli';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
let file: string;
beforeEach(async () => {
  temp = await temporaryDir();
  file = await temp.write('office.json', { tools: OFFICE_TOOLS, queries: OFFICE_QUERIES });
});
afterEach(() => temp.dispose());

describe('tool-search eval', () => {
  it('prints the metrics, counts and worst queries as one JSON object', async () => {
    const run = await runCli(['eval', file, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(Object.keys(report).sort()).toEqual(
      [
        'mode',
        'mrr',
        'ndcg',
        'queries',
        'recallAt1',
        'recallAt10',
        'recallAt5',
        'tools',
        'worst',
      ].sort(),
    );
    expect(report.mode).toBe('bm25f');
    // Three queries find their tool first; "send a message" never finds translate_text.
    expect(report).toMatchObject({
      recallAt1: 0.75,
      recallAt5: 0.75,
      recallAt10: 0.75,
      mrr: 0.75,
      ndcg: 0.75,
      queries: 4,
      tools: 4,
    });
    expect(report.worst).toEqual([
      {
        query: 'send a message',
        relevant: [{ id: 'translate_text', rank: null }],
        returned: [{ id: 'send_email', score: expect.any(Number) }],
        ndcg: 0,
        recallAt10: 0,
      },
    ]);
  });

  it('prints a table of metrics and the worst queries with what came back instead', async () => {
    const run = await runCli(['eval', file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${file}: 4 queries, 4 tools, default ranking`);
    expect(run.stdout).toMatch(/recall@5\s+0\.750/);
    expect(run.stdout).toMatch(/nDCG@10\s+0\.750/);
    expect(run.stdout).toMatch(/0\.000\s+send a message\s+translate_text \(-\)\s+send_email/);
  });

  it('draws a progress bar on stderr only when stderr is a terminal', async () => {
    const quiet = await runCli(['eval', file, '--json']);
    expect(quiet.stderr).toBe('');
    const tty = await runCli(['eval', file, '--json'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('4/4 queries');
    expect(tty.stderr).toContain('100%');
    // Erased when done, so the terminal is left clean.
    expect(tty.stderr.endsWith('\r\u001b[2K')).toBe(true);
    expect(JSON.parse(tty.stdout).queries).toBe(4);
  });

  it('moves with the ranking flags', async () => {
    // Every field weighted 0 and no word boost: no tool scores, so nothing is found.
    const zero = ['id', 'description', 'parameters', 'parameterDescriptions'].flatMap((field) => [
      '--weight',
      `${field}=0`,
    ]);
    const run = await runCli(['eval', file, '--json', ...zero, '--word-id-boost', '0']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ recallAt10: 0, mrr: 0, ndcg: 0 });
    // The id's words alone, boosted, still find the three tools whose ids the queries name.
    const ids = await runCli([
      'eval',
      file,
      '--json',
      '--weight',
      'description=0',
      '--weight',
      'id=4',
    ]);
    expect(JSON.parse(ids.stdout).recallAt1).toBe(0.75);
  });

  it('exits 3 when recall@5 is under --fail-under, after printing the report', async () => {
    const failed = await runCli(['eval', file, '--json', '--fail-under', '0.8']);
    expect(failed.code).toBe(3);
    expect(JSON.parse(failed.stdout).recallAt5).toBe(0.75);
    expect(failed.stderr).toBe('tool-search: recall@5 0.750 is under --fail-under 0.8\n');
    expect((await runCli(['eval', file, '--json', '--fail-under', '0.75'])).code).toBe(0);
  });

  it('lists --worst N queries at most', async () => {
    const run = await runCli(['eval', file, '--json', '--worst', '0']);
    expect(JSON.parse(run.stdout).worst).toEqual([]);
  });

  it('names a relevant id that is not in the catalog with its JSON path', async () => {
    const bad = await temp.write('bad.json', {
      tools: OFFICE_TOOLS,
      queries: [...OFFICE_QUERIES, { query: 'x', relevant: ['get_weather', 'get_wether'] }],
    });
    const run = await runCli(['eval', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `tool-search: ${bad}: $.queries[4].relevant[1]: "get_wether" is not a tool of the catalog\n`,
    );
  });

  it('needs queries in the file', async () => {
    const toolsOnly = await temp.write('tools.json', { tools: OFFICE_TOOLS });
    const run = await runCli(['eval', toolsOnly]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${toolsOnly}: $: needs a "queries" array`);
  });
});
