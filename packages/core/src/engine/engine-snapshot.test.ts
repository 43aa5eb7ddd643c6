import { describe, expect, it } from 'vitest';
import type { EmbedCallOptions, EmbedFunction } from '../embedding/embed-function';
import { toEmbeddingText } from '../embedding/embedding-text';
import type { SearchToolsOutput } from '../meta-tools/meta-tool-schemas';
import { SnapshotError } from '../search/snapshot-ranking';
import { ToolIndex } from '../search/tool-index';
import { SnapshotDriftError } from './snapshot-drift-error';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
  inputSchema?: Record<string, unknown>;
}

const catalog: Record<string, FakeTool> = {
  get_weather: { description: 'Current weather conditions for a city' },
  github_create_issue: { description: 'Open an issue in a GitHub repository' },
  send_email: { description: 'Send an email to a recipient' },
};

function engineFor(
  options: Partial<ToolSearchEngineOptions<FakeTool>> = {},
  tools: Record<string, FakeTool> = catalog,
) {
  return createToolSearchEngine<FakeTool>({
    tools,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      ...(tool.inputSchema && { inputSchema: tool.inputSchema }),
    }),
    ...options,
  });
}

async function search(engine: ReturnType<typeof engineFor>, query: string) {
  const session = engine.createSession();
  const tool = session.metaTools.find((candidate) => candidate.name === 'search_tools')!;
  return ((await tool.execute({ query })) as SearchToolsOutput).results;
}

/** Words per concept: "umbrella" and "weather" land together though they share no letters. */
const CONCEPTS: readonly (readonly string[])[] = [
  ['umbrella', 'rain', 'weather', 'forecast', 'sunny'],
  ['issue', 'bug', 'repository', 'github', 'ticket'],
  ['email', 'mail', 'inbox', 'recipient', 'letter'],
];

/** A deterministic embedder that knows a few synonyms, recording what it was asked to embed. */
function createEmbedder() {
  const calls: { texts: string[]; purpose: EmbedCallOptions['purpose'] }[] = [];
  const embed: EmbedFunction = async (texts, options) => {
    calls.push({ texts: [...texts], purpose: options?.purpose });
    return texts.map((text) => {
      const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
      const vector = CONCEPTS.map(
        (concept) => words.filter((word) => concept.includes(word)).length,
      );
      return [...vector, 0.05];
    });
  };
  const documents = () => calls.filter((call) => call.purpose === 'document');
  return { embed, calls, documents };
}

describe('createToolSearchEngine({ snapshot })', () => {
  it('starts from a snapshot and searches like an engine that indexed the catalog', async () => {
    const snapshot = engineFor().index.toSnapshot();
    const restored = engineFor({ snapshot });
    expect(restored.index.size).toBe(3);
    for (const query of ['weather', 'open github issue', 'email someone']) {
      expect(await search(restored, query)).toEqual(await search(engineFor(), query));
    }
  });

  it('indexes the tools the snapshot lacks, removes those the catalog lacks, and reports both', async () => {
    const errors: { operation: string; error: unknown }[] = [];
    const snapshot = new ToolIndex([
      { id: 'get_weather', description: 'Current weather conditions for a city' },
      { id: 'old_tool', description: 'Gone from the catalog' },
    ]).toSnapshot();
    const engine = engineFor({ snapshot, onError: (event) => errors.push(event) });
    expect(engine.index.ids().sort()).toEqual(Object.keys(catalog).sort());
    expect((await search(engine, 'email'))[0]?.name).toBe('send_email');
    for (const query of ['weather', 'gone from the catalog', 'open github issue', 'email']) {
      expect(await search(engine, query)).toEqual(await search(engineFor(), query));
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]!.operation).toBe('snapshot');
    const error = errors[0]!.error as SnapshotDriftError;
    expect(error).toBeInstanceOf(SnapshotDriftError);
    expect(error.changes).toEqual({
      added: ['github_create_issue', 'send_email'],
      changed: [],
      removed: ['old_tool'],
    });
    expect(error.reindexed).toBe(2);
    expect(error.message).toMatch(
      /0 of its tools have other text in the catalog, 2 catalog tools are not in it, and 1 of its tools are not in the catalog \(such as "github_create_issue", "send_email", "old_tool"\).*indexed \(2\) or removed \(1\).*1 tools came from the snapshot/,
    );
  });

  it('ranks a tool by its new text when it changed under the same id since the snapshot', async () => {
    const before: Record<string, FakeTool> = {
      ...catalog,
      notify: {
        description: 'Send an email to a recipient',
        inputSchema: { type: 'object', properties: { recipient: { type: 'string' } } },
      },
    };
    const snapshot = engineFor({}, before).toSnapshot();
    // The same ids; one tool now does something else entirely, with another parameter.
    const after: Record<string, FakeTool> = {
      ...catalog,
      notify: {
        description: 'Delete a GitHub repository',
        inputSchema: { type: 'object', properties: { repository_name: { type: 'string' } } },
      },
    };
    const errors: { operation: string; error: unknown }[] = [];
    const restored = engineFor({ snapshot, onError: (event) => errors.push(event) }, after);
    // What the model is shown is what search ranks: the new text is found, the old one is not.
    const deleting = await search(restored, 'delete repository');
    expect(deleting[0]).toMatchObject({
      name: 'notify',
      description: 'Delete a GitHub repository',
    });
    expect((await search(restored, 'repository name'))[0]?.name).toBe('notify');
    const names = (results: { name: string }[]) => results.map((result) => result.name);
    expect(names(await search(restored, 'send email'))).not.toContain('notify');
    expect(names(await search(restored, 'recipient'))).not.toContain('notify');
    for (const query of ['send email', 'recipient', 'delete a GitHub repository', 'weather']) {
      expect(await search(restored, query)).toEqual(await search(engineFor({}, after), query));
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]!.operation).toBe('snapshot');
    const error = errors[0]!.error as SnapshotDriftError;
    expect(error).toBeInstanceOf(SnapshotDriftError);
    expect(error.changes).toEqual({ added: [], changed: ['notify'], removed: [] });
    expect(error.reindexed).toBe(1);
    expect(error.message).toMatch(
      /1 of its tools have other text in the catalog, 0 catalog tools are not in it, and 0 of its tools are not in the catalog \(such as "notify"\).*3 tools came from the snapshot/,
    );
    // The unchanged catalog restores silently.
    const quiet: unknown[] = [];
    engineFor({ snapshot, onError: (event) => quiet.push(event) }, before);
    expect(quiet).toEqual([]);
  });

  it('refuses a snapshot built with other ranking options than the engine’s', () => {
    const snapshot = engineFor({ index: { k1: 1.8 } }).index.toSnapshot();
    expect(() => engineFor({ snapshot })).toThrow(SnapshotError);
    expect(() => engineFor({ snapshot })).toThrow(/k1: snapshot 1.8, options 1.2/);
    expect(engineFor({ snapshot, index: { k1: 1.8 } }).index.size).toBe(3);
    // Inside an engine snapshot, the index is checked the same way.
    const envelope = engineFor({ index: { k1: 1.8 } }).toSnapshot();
    expect(() => engineFor({ snapshot: envelope })).toThrow(/k1: snapshot 1.8, options 1.2/);
  });

  it('refuses damaged bytes with a clear error', () => {
    const snapshot = engineFor().index.toSnapshot().slice(0, 100);
    expect(() => engineFor({ snapshot })).toThrow(/damaged or truncated/);
  });
});

describe('engine.toSnapshot()', () => {
  it('carries the vectors: a restored engine embeds no tool text and fuses identically', async () => {
    const first = createEmbedder();
    const writer = engineFor({ embed: first.embed, fusion: { model: 'synonyms-v1' } });
    await writer.warmEmbeddings();
    expect(first.documents().flatMap((call) => call.texts)).toHaveLength(3);
    const snapshot = writer.toSnapshot();

    const second = createEmbedder();
    const errors: unknown[] = [];
    const reader = engineFor({
      embed: second.embed,
      fusion: { model: 'synonyms-v1' },
      snapshot,
      onError: (event) => errors.push(event),
    });
    expect(reader.vectorCache!.size).toBe(3);
    await reader.warmEmbeddings();
    for (const query of ['will I need an umbrella?', 'report a bug', 'write a letter']) {
      expect(await search(reader, query)).toEqual(await search(writer, query));
    }
    // A paraphrase found by meaning alone: the vectors really are in use.
    expect((await search(reader, 'will I need an umbrella?'))[0]?.name).toBe('get_weather');
    expect(second.documents()).toEqual([]);
    expect(second.calls.map((call) => call.purpose)).toEqual(['query', 'query', 'query']);
    expect(errors).toEqual([]);
  });

  it('reads an engine snapshot at any byte offset, as a small file in Node’s buffer pool is', async () => {
    const { embed } = createEmbedder();
    const writer = engineFor({ embed });
    await writer.warmEmbeddings();
    const bytes = writer.toSnapshot();
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const second = createEmbedder();
    const reader = engineFor({ embed: second.embed, snapshot: shifted.subarray(3) });
    await reader.warmEmbeddings();
    expect(second.documents()).toEqual([]);
    expect(await search(reader, 'umbrella')).toEqual(await search(writer, 'umbrella'));
  });

  it('does not restore vectors of another fusion.model: it says so and embeds the catalog', async () => {
    const first = createEmbedder();
    const writer = engineFor({ embed: first.embed, fusion: { model: 'synonyms-v1' } });
    await writer.warmEmbeddings();
    const errors: { operation: string; error: unknown }[] = [];
    const second = createEmbedder();
    const reader = engineFor({
      embed: second.embed,
      fusion: { model: 'synonyms-v2' },
      snapshot: writer.toSnapshot(),
      onError: (event) => errors.push(event),
    });
    expect(reader.vectorCache!.size).toBe(0);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.operation).toBe('snapshot');
    expect(errors[0]!.error).toBeInstanceOf(SnapshotError);
    expect(String(errors[0]!.error)).toMatch(
      /3 vectors \(4 dimensions\) were written with model "synonyms-v1", and this engine has fusion\.model "synonyms-v2": they were not restored/,
    );
    // The index part is still used; the catalog is embedded by the new model.
    expect(reader.index.size).toBe(3);
    expect((await search(reader, 'will I need an umbrella?'))[0]?.name).toBe('get_weather');
    expect(
      second
        .documents()
        .flatMap((call) => call.texts)
        .sort(),
    ).toEqual(
      Object.entries(catalog)
        .map(([id, tool]) => toEmbeddingText({ id, description: tool.description }))
        .sort(),
    );
  });

  it('keeps the vectors of unchanged tools when the catalog drifted from the snapshot', async () => {
    const first = createEmbedder();
    const writer = engineFor({ embed: first.embed });
    await writer.warmEmbeddings();
    const drifted = { ...catalog, read_inbox: { description: 'List the mail in an inbox' } };
    const errors: { operation: string }[] = [];
    const second = createEmbedder();
    const reader = engineFor(
      {
        embed: second.embed,
        snapshot: writer.toSnapshot(),
        onError: (event) => errors.push(event),
      },
      drifted,
    );
    await reader.warmEmbeddings();
    // The index was rebuilt (the snapshot lacks read_inbox)...
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
    expect(reader.index.has('read_inbox')).toBe(true);
    // ...and only the new tool's text was embedded.
    expect(second.documents().flatMap((call) => call.texts)).toEqual([
      toEmbeddingText({ id: 'read_inbox', description: 'List the mail in an inbox' }),
    ]);
  });

  it('is restored by an engine without embed, which ignores the vectors', async () => {
    const { embed } = createEmbedder();
    const writer = engineFor({ embed });
    await writer.warmEmbeddings();
    const errors: unknown[] = [];
    const reader = engineFor({
      snapshot: writer.toSnapshot(),
      onError: (event) => errors.push(event),
    });
    expect(reader.vectorCache).toBeUndefined();
    expect(reader.index.size).toBe(3);
    expect(await search(reader, 'open github issue')).toEqual(
      await search(engineFor(), 'open github issue'),
    );
    expect(errors).toEqual([]);
  });

  it('without embed, holds the index alone, and an engine with embed then embeds the catalog', async () => {
    const snapshot = engineFor().toSnapshot();
    const { embed, documents } = createEmbedder();
    const reader = engineFor({ embed, snapshot });
    expect(reader.vectorCache!.size).toBe(0);
    await reader.warmEmbeddings();
    expect(documents().flatMap((call) => call.texts)).toHaveLength(3);
  });

  it('is interchangeable with a plain index snapshot for an engine with embed', async () => {
    const { embed, documents } = createEmbedder();
    const reader = engineFor({ embed, snapshot: engineFor().index.toSnapshot() });
    expect(reader.index.size).toBe(3);
    expect((await search(reader, 'will I need an umbrella?'))[0]?.name).toBe('get_weather');
    expect(documents().flatMap((call) => call.texts)).toHaveLength(3);
  });

  it('refuses a damaged, truncated or unknown-version envelope with a clear error', async () => {
    const { embed } = createEmbedder();
    const writer = engineFor({ embed });
    await writer.warmEmbeddings();
    const bytes = writer.toSnapshot();
    const refusal = (snapshot: Uint8Array) => {
      try {
        engineFor({ embed, snapshot });
      } catch (error) {
        return error as SnapshotError;
      }
      throw new Error('the snapshot was accepted');
    };

    const flipped = bytes.slice();
    flipped[flipped.length - 2]! ^= 0x40; // a bit of the last vector
    expect(refusal(flipped)).toMatchObject({ name: 'SnapshotError', reason: 'corrupt' });
    expect(refusal(flipped).message).toMatch(
      /engine snapshot is damaged or truncated \(checksum mismatch\); rebuild it with engine\.toSnapshot\(\)/,
    );
    expect(refusal(bytes.slice(0, bytes.length - 4)).message).toMatch(
      /damaged or truncated \(sections do not fit its length\)/,
    );
    expect(refusal(bytes.slice(0, 10)).message).toMatch(
      /damaged or truncated \(header too short\)/,
    );
    const lengths = bytes.slice();
    new DataView(lengths.buffer).setBigUint64(8, 1n << 40n, true);
    expect(refusal(lengths).reason).toBe('corrupt');
    const version = bytes.slice();
    version[4] = 9;
    expect(refusal(version)).toMatchObject({ reason: 'version' });
    expect(refusal(version).message).toMatch(
      /format version 9; this version of tool-search-core reads version 1/,
    );
    // A damaged index inside a sound envelope is refused by the index's own checks.
    const index = bytes.slice();
    index[64 + 40]! ^= 0xff;
    expect(refusal(index).message).toMatch(/index snapshot|damaged or truncated/);
  });
});
