import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Finding, InspectReport } from '../inspect/inspect-catalog';
import type { CatalogTool } from '../source/catalog';
import { OFFICE_TOOLS } from '../test-utils/catalogs';
import { runCli, temporaryDir } from '../test-utils/run-cli';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
beforeEach(async () => {
  temp = await temporaryDir();
});
afterEach(() => temp.dispose());

/** Six tools named for "search file" and one that only says it: the last is outranked. */
const FILE_TOOLS: CatalogTool[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter) => ({
  id: `search_file_${letter}`,
  description: `Search file ${letter} for a pattern`,
}));

/** A catalog with one problem of each kind, on top of the office tools. */
const FLAWED_TOOLS: CatalogTool[] = [
  ...OFFICE_TOOLS,
  { id: 'noop', description: '' },
  { id: 'ping', description: 'Ping it.' },
  // send_email's text under another name: a near-duplicate.
  { ...OFFICE_TOOLS[1]!, id: 'send_mail' },
  // Both become `flawed__get_forecast` under the gateway's name rule.
  { id: 'get forecast', description: 'Forecast of the weather for the next days, by city' },
  { id: 'get_forecast', description: 'Forecast of tides at a harbour for the coming week' },
  ...FILE_TOOLS,
  { id: 'finder', description: 'Search file' },
];

function ofType<T extends Finding['type']>(report: InspectReport, type: T) {
  return report.findings.filter((finding) => finding.type === type) as Extract<
    Finding,
    { type: T }
  >[];
}

describe('tool-search inspect', () => {
  it('prints { tools, tokens: { catalog, metaTools }, perTool, findings } with --json', async () => {
    const file = await temp.write('office.json', { tools: OFFICE_TOOLS });
    const run = await runCli(['inspect', file, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as InspectReport;
    expect(Object.keys(report).sort()).toEqual(['findings', 'perTool', 'tokens', 'tools']);
    expect(report.tools).toBe(4);
    expect(report.findings).toEqual([]);
    // o200k_base tokens of the tools as function definitions, counted here independently.
    const definitions = OFFICE_TOOLS.map((tool) => ({
      type: 'function',
      function: { name: tool.id, description: tool.description, parameters: tool.inputSchema },
    }));
    expect(report.tokens.catalog).toBe(countTokens(JSON.stringify(definitions)));
    expect(report.perTool).toEqual(
      definitions.map((definition) => ({
        id: definition.function.name,
        tokens: countTokens(JSON.stringify([definition])),
      })),
    );
    expect(report.tokens.metaTools).toBeGreaterThan(100);
  });

  it('counts the meta-tools the model is given: search_tools and load_tool', async () => {
    const file = await temp.write('office.json', { tools: OFFICE_TOOLS });
    const run = await runCli(['inspect', file]);
    expect(run.stdout).toMatch(/the meta-tools instead:\s+[\d,]+ .*\[search_tools, load_tool\]/);
  });

  it('finds empty and short descriptions, near-duplicates, colliding names and tools search misses', async () => {
    const file = await temp.write('flawed.json', { name: 'flawed', tools: FLAWED_TOOLS });
    const report = JSON.parse((await runCli(['inspect', file, '--json'])).stdout) as InspectReport;
    expect(ofType(report, 'empty-description').map((finding) => finding.id)).toEqual(['noop']);
    expect(ofType(report, 'short-description')).toEqual([
      expect.objectContaining({ id: 'ping', description: 'Ping it.', terms: 1 }),
      expect.objectContaining({ id: 'finder', description: 'Search file', terms: 2 }),
    ]);
    const duplicates = ofType(report, 'near-duplicate');
    expect(duplicates.map((finding) => finding.ids)).toContainEqual(['send_email', 'send_mail']);
    expect(
      duplicates.find((finding) => finding.ids[1] === 'send_mail')!.similarity,
    ).toBeGreaterThan(0.9);
    expect(ofType(report, 'name-collision')).toEqual([
      expect.objectContaining({
        ids: ['get forecast', 'get_forecast'],
        exposedName: 'flawed__get_forecast',
      }),
    ]);
    const missed = ofType(report, 'not-found-by-own-description');
    expect(missed.map((finding) => finding.id)).toContain('finder');
    const finder = missed.find((finding) => finding.id === 'finder')!;
    expect(finder.rank).toBe(7);
    expect(finder.top).toHaveLength(3);
    for (const finding of report.findings) expect(finding.message.length).toBeGreaterThan(10);
  });

  it('prints the findings grouped for people, and exits 3 with --fail-on-findings', async () => {
    const file = await temp.write('flawed.json', { name: 'flawed', tools: FLAWED_TOOLS });
    const run = await runCli(['inspect', file, '--fail-on-findings']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('Empty descriptions (1):');
    expect(run.stdout).toContain('Near-duplicate tools (');
    expect(run.stdout).toContain("Names that collide under the gateway's name rule (1):");
    expect(run.stdout).toContain("a search for finder's own description ranks it #7");
    expect(run.stderr).toMatch(new RegExp(`^tool-search: ${file}: \\d+ finding\\(s\\)\\n$`));
    const clean = await temp.write('office.json', { tools: OFFICE_TOOLS });
    expect((await runCli(['inspect', clean, '--fail-on-findings'])).code).toBe(0);
  });

  it('takes its thresholds as flags', async () => {
    const file = await temp.write('flawed.json', { name: 'flawed', tools: FLAWED_TOOLS });
    const strict = JSON.parse(
      (
        await runCli([
          'inspect',
          file,
          '--json',
          '--min-description-terms',
          '8',
          '--duplicate-threshold',
          '0.3',
        ])
      ).stdout,
    ) as InspectReport;
    const loose = JSON.parse(
      (
        await runCli([
          'inspect',
          file,
          '--json',
          '--min-description-terms',
          '0',
          '--duplicate-threshold',
          '0.999',
        ])
      ).stdout,
    ) as InspectReport;
    expect(ofType(strict, 'short-description').length).toBeGreaterThan(3);
    expect(ofType(loose, 'short-description')).toEqual([]);
    expect(ofType(strict, 'near-duplicate').length).toBeGreaterThan(
      ofType(loose, 'near-duplicate').length,
    );
  });
});
