import { ToolIndex } from 'tool-search-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OFFICE_TOOLS } from '../test-utils/catalogs';
import { runCli, temporaryDir } from '../test-utils/run-cli';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
let file: string;
beforeEach(async () => {
  temp = await temporaryDir();
  file = await temp.write('office.json', { tools: OFFICE_TOOLS });
});
afterEach(() => temp.dispose());

describe('tool-search search', () => {
  it('prints { id, score, description } hits as ToolIndex ranks them, with --json', async () => {
    const run = await runCli(['search', file, 'weather', 'forecast', 'for', 'Paris', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const hits = JSON.parse(run.stdout) as unknown[];
    expect(hits).toEqual(new ToolIndex(OFFICE_TOOLS).search('weather forecast for Paris'));
    expect(hits[0]).toEqual({
      id: 'get_weather',
      score: expect.any(Number),
      description: 'Get the current weather forecast for a city',
    });
    for (const hit of hits)
      expect(Object.keys(hit as object).sort()).toEqual(['description', 'id', 'score']);
  });

  it('shows which fields matched, in analyzed terms, in the table', async () => {
    const run = await runCli(['search', file, 'get_weather in a city']);
    expect(run.code).toBe(0);
    const row = run.stdout.split('\n').find((line) => line.includes('get_weather'))!;
    expect(row).toMatch(/^1\s+get_weather\s+\d+\.\d{3}\s/);
    expect(row).toContain('exact id');
    expect(row).toContain('id: get weather');
    expect(row).toContain('description: get weather city');
    expect(row).toContain('param descriptions: city');
    expect(run.stdout).toContain(`of 4 tools in ${file} · default ranking`);
  });

  it('takes --top-k, --min-score and ranking flags, as ToolIndex does', async () => {
    const query = 'send a message in another language';
    const weighted = await runCli([
      'search',
      file,
      query,
      '--json',
      '--top-k',
      '1',
      '--weight',
      'description=0',
      '--weight',
      'parameter-descriptions=3',
      '--exact-id-boost',
      '5',
      '--word-id-boost',
      '2',
      '--k1',
      '2',
      '--b',
      '0.5',
      '--b',
      'id=1',
      '--no-stem',
      '--no-stop-words',
    ]);
    expect(weighted.code).toBe(0);
    const options = {
      fieldWeights: { description: 0, parameterDescriptions: 3 },
      idBoost: { exact: 5, word: 2 },
      k1: 2,
      b: { id: 1, description: 0.5, parameters: 0.5, parameterDescriptions: 0.5, keywords: 0.5 },
      tokenizer: { stem: false, stopWords: false as const },
    };
    expect(JSON.parse(weighted.stdout)).toEqual(
      new ToolIndex(OFFICE_TOOLS, options).search(query, { topK: 1 }),
    );

    const all = JSON.parse((await runCli(['search', file, query, '--json'])).stdout) as {
      score: number;
    }[];
    const cut = all[1]!.score;
    const kept = JSON.parse(
      (await runCli(['search', file, query, '--json', '--min-score', String(cut)])).stdout,
    );
    expect(kept).toEqual(all.filter((hit) => hit.score > cut));
  });

  it('says so when nothing matches', async () => {
    const run = await runCli(['search', file, 'quantum chromodynamics']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`No tool of ${file} (4 tools) matches "quantum chromodynamics".`);
    expect(JSON.parse((await runCli(['search', file, 'zzz', '--json'])).stdout)).toEqual([]);
  });
});
