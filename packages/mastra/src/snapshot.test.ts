import { createTool } from '@mastra/core/tools';
import { createToolSearchEngine, type EmbedFunction, SnapshotDriftError } from 'tool-search-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeMastraTool } from './describe-mastra-tool';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent, searchLoadCall } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';
import type { AnyMastraTool } from './tool-search-processor-options';

describe('ToolSearchProcessor({ snapshot })', () => {
  it('starts from an index snapshot built at deploy time and runs the agent loop', async () => {
    const log: ExecutionLog = { runs: [] };
    const tools = createCatalog(log);
    // What a deploy script does: index the catalog as the processor describes it, keep the bytes.
    const snapshot = createToolSearchEngine({
      tools,
      describe: describeMastraTool,
    }).index.toSnapshot();
    const errors: unknown[] = [];
    const processor = new ToolSearchProcessor({
      tools,
      snapshot,
      onError: (event) => errors.push(event),
    });
    const run = await runAgent({
      processor,
      script: searchLoadCall('weather forecast', { city: 'Lisbon' }),
      input: 'Weather in Lisbon?',
    });
    const [search] = run.turns[1]!.toolResults;
    expect((search!.output as { results: { name: string }[] }).results[0]!.name).toBe(
      'get_weather',
    );
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Lisbon' } }]);
    expect(errors).toEqual([]);
  });

  it('ranks a tool by its new text when it changed under the same id since the snapshot', async () => {
    const snapshot = new ToolSearchProcessor({ tools: createCatalog({ runs: [] }) }).toSnapshot();
    // Deployed later: `transfer_funds` now deletes repositories, under the same id.
    const log: ExecutionLog = { runs: [] };
    const tools = {
      ...createCatalog(log),
      transfer_funds: createTool({
        id: 'transfer_funds',
        description: 'Delete a GitHub repository',
        inputSchema: z.object({ repositoryName: z.string() }),
        execute: async (input: Record<string, unknown>) => {
          log.runs.push({ toolName: 'transfer_funds', input });
          return { deleted: true };
        },
      }) as AnyMastraTool,
    };
    const errors: { operation: string; error: unknown }[] = [];
    const processor = new ToolSearchProcessor({
      tools,
      snapshot,
      onError: (event) => errors.push(event),
    });
    const run = await runAgent({
      processor,
      script: searchLoadCall('delete a repository', { repositoryName: 'old-site' }),
      input: 'Delete the old-site repository.',
    });
    const [search] = run.turns[1]!.toolResults;
    expect((search!.output as { results: unknown[] }).results[0]).toMatchObject({
      name: 'transfer_funds',
      description: 'Delete a GitHub repository',
    });
    expect(log.runs).toEqual([
      { toolName: 'transfer_funds', input: { repositoryName: 'old-site' } },
    ]);
    // The old text no longer finds it.
    const old = await runAgent({
      processor,
      script: (turn) =>
        lastResult(turn)
          ? { text: 'done' }
          : { toolName: 'search_tools', input: { query: 'move money between two accounts' } },
      input: 'Pay the invoice.',
    });
    const [oldSearch] = old.turns[1]!.toolResults;
    const names = (oldSearch!.output as { results: { name: string }[] }).results.map(
      (result) => result.name,
    );
    expect(names).not.toContain('transfer_funds');
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
    const error = errors[0]!.error as SnapshotDriftError;
    expect(error).toBeInstanceOf(SnapshotDriftError);
    expect(error.changes).toEqual({ added: [], changed: ['transfer_funds'], removed: [] });
  });

  it('refuses a snapshot built with other ranking options', () => {
    const tools = createCatalog({ runs: [] });
    const snapshot = createToolSearchEngine({
      tools,
      describe: describeMastraTool,
      index: { k1: 2 },
    }).index.toSnapshot();
    expect(() => new ToolSearchProcessor({ tools, snapshot })).toThrow(/other ranking options/);
  });
});

describe('processor.toSnapshot()', () => {
  it('carries the vectors: a processor started from it embeds no tool and finds by meaning', async () => {
    const concepts = [
      ['umbrella', 'rain', 'weather', 'forecast'],
      ['mail', 'email', 'message', 'letter', 'recipient'],
    ];
    const embedder = () => {
      const purposes: (string | undefined)[] = [];
      const embed: EmbedFunction = async (texts, options) => {
        purposes.push(...texts.map(() => options?.purpose));
        return texts.map((text) => {
          const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
          return [...concepts.map((c) => words.filter((w) => c.includes(w)).length), 0.05];
        });
      };
      return { embed, purposes };
    };
    const first = embedder();
    const writer = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      embed: first.embed,
      fusion: { model: 'concepts' },
    });
    await writer.warmEmbeddings();
    expect(first.purposes.length).toBeGreaterThan(0);

    const log: ExecutionLog = { runs: [] };
    const second = embedder();
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      embed: second.embed,
      fusion: { model: 'concepts' },
      snapshot: writer.toSnapshot(),
    });
    await runAgent({
      processor,
      script: searchLoadCall('will I need an umbrella?', { city: 'Oslo' }),
      input: 'Going out in Oslo',
    });
    expect(log.runs).toEqual([{ toolName: 'get_weather', input: { city: 'Oslo' } }]);
    // Only the query was embedded: the tools' vectors came from the snapshot.
    expect(second.purposes).toEqual(['query']);
  });
});
