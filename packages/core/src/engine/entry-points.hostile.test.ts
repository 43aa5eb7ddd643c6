/**
 * Hostile input, table-driven, for the engine's entry points: the meta-tools' inputs (what a model
 * sends), the engine's catalog and `describe` (what third-party tool servers publish), and the
 * filter (what an operator's policy does). (`ToolIndex`, the memory store and the context replay
 * have theirs beside them: `*.hostile.test.ts`.) Each row states its outcome:
 * a clear answer (checked) or a clear error; every row must finish within its stated time (the
 * test's timeout: a hang guard, never a speed gate); and, unless the row says it changes state,
 * the thread's loaded tools, the offered tools and the index are the same afterwards.
 *
 * Adding an entry point later (the gateway's JSON-RPC messages, its config files, CLI arguments):
 * write a fixture that builds it (a gateway on a loopback port, a temporary config file, the CLI
 * run in a child process), then rows `{ entry, input, run, outcome, within }` whose `run` sends
 * the same hostile values from `../test-utils/hostile-inputs` through it, with a `snapshot` that
 * reads its state (its sessions, its upstreams) so "unchanged" is checked the same way.
 */

import {
  cyclicSchema,
  deepSchema,
  LONE_SURROGATES,
  MANY_NAMES,
  ONE_MB,
  ONLY_EMOJI,
  ONLY_PUNCTUATION,
  PROTOTYPE_NAMES,
  prototypeKeyedJson,
  REGEX_FRAGMENT,
  SQL_FRAGMENT,
  TEN_MB,
} from 'tool-search-testing/hostile-inputs';
import { describe, expect, it } from 'vitest';
import type {
  LoadToolOutput,
  SearchToolsOutput,
  UnloadToolOutput,
} from '../meta-tools/meta-tool-schemas';
import { createMemoryStore, type MemoryStore } from '../state/memory-store';
import { toToolRecord } from './to-tool-record';
import { createToolSearchEngine, type ToolSearchEngine } from './tool-search-engine';
import type { ToolSearchEngineOptions } from './types';

interface FakeTool {
  description: string;
  inputSchema?: Record<string, unknown>;
}

const CATALOG = toToolRecord<FakeTool>([
  ['get_weather', { description: 'Current weather conditions and forecast for a city' }],
  ['send_email', { description: 'Send an email message to a recipient' }],
  ['create_issue', { description: 'Open an issue in a GitHub repository' }],
  ['__proto__', { description: 'Inspect the prototype chain of an object' }],
  ['constructor', { description: 'Build a house from construction plans' }],
]);

/** The longest message a meta-tool may answer with: a hostile input is never echoed whole. */
const MAX_ANSWER = 2_000;
/** Hang guards: most rows answer at once; rows that index or scan megabytes get longer. */
const QUICK = 5_000;
const SLOW = 60_000;
/** The filter timeout of the fixtures: a hanging filter is cut off after this. */
const FILTER_TIMEOUT = 50;

interface Fixture {
  engine: ToolSearchEngine<FakeTool>;
  store: MemoryStore;
  run<TOutput>(
    tool: 'search_tools' | 'load_tool' | 'unload_tool',
    input: unknown,
  ): Promise<TOutput>;
}

/** An engine on a memory store, with `get_weather` already loaded in the thread `thread`. */
async function createFixture(
  options: Partial<ToolSearchEngineOptions<FakeTool>> = {},
): Promise<Fixture> {
  const store = createMemoryStore();
  const engine = createToolSearchEngine<FakeTool>({
    tools: CATALOG,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      ...(tool.inputSchema && { inputSchema: tool.inputSchema }),
    }),
    storage: store,
    unloadTool: true,
    filterTimeout: FILTER_TIMEOUT,
    ...options,
  });
  const fixture: Fixture = {
    engine,
    store,
    async run(name, input) {
      const session = engine.createSession({ threadId: 'thread' });
      const tool = session.metaTools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`no ${name}`);
      return (await tool.execute(input)) as never;
    },
  };
  await fixture.run('load_tool', { toolName: 'get_weather' });
  return fixture;
}

/** What "state unchanged" compares: the stored thread, the offered tools, the index. */
async function snapshot(fixture: Fixture) {
  const session = fixture.engine.createSession({ threadId: 'thread' });
  return {
    stored: (await fixture.store.get('thread'))?.tools.map((entry) => entry.id),
    active: (await session.activeTools()).map((tool) => tool.id),
    indexed: fixture.engine.index.ids(),
    threads: fixture.store.getStateStats().threadCount,
  };
}

type Outcome =
  /** A clear answer: the check says what it must be. */
  | { answer: (output: never) => void }
  /** A clear error, thrown or rejected. */
  | { error: RegExp };

interface Row {
  entry: string;
  input: string;
  run: (fixture: Fixture) => unknown;
  outcome: Outcome;
  /** The hang guard in ms. */
  within?: number;
  /** Engine options for this row's fixture. */
  options?: Partial<ToolSearchEngineOptions<FakeTool>>;
  /** The row may change the thread (a load that is allowed to succeed). */
  changesState?: boolean;
}

const noTools = (output: SearchToolsOutput) => {
  expect(output.results).toEqual([]);
  expect(JSON.stringify(output).length).toBeLessThan(MAX_ANSWER);
};
const someAnswer = (output: SearchToolsOutput) => {
  expect(Array.isArray(output.results)).toBe(true);
  for (const result of output.results) expect(Object.hasOwn(CATALOG, result.name)).toBe(true);
  expect(JSON.stringify(output).length).toBeLessThan(MAX_ANSWER);
};
const notLoaded = (output: LoadToolOutput) => {
  expect(output.success).toBe(false);
  expect(output.loaded ?? []).toEqual([]);
  expect(JSON.stringify(output).length).toBeLessThan(MAX_ANSWER);
};
const nothingUnloaded = (output: UnloadToolOutput) => {
  expect(output.success).toBe(false);
  expect(output.unloaded).toEqual([]);
  expect(JSON.stringify(output).length).toBeLessThan(MAX_ANSWER);
};

/** The hostile strings every text entry point gets. */
const STRINGS: [label: string, value: string, within: number][] = [
  ['an empty string', '', QUICK],
  ['1 MB of text', ONE_MB, SLOW],
  ['10 MB of text', TEN_MB, SLOW],
  ['lone surrogates', LONE_SURROGATES, QUICK],
  ['only punctuation', ONLY_PUNCTUATION, QUICK],
  ['only emoji', ONLY_EMOJI, QUICK],
  ['a regex fragment', REGEX_FRAGMENT, QUICK],
  ['an SQL fragment', SQL_FRAGMENT, QUICK],
  ['hasOwnProperty', 'hasOwnProperty', QUICK],
  ['toString', 'toString', QUICK],
];

const ROWS: Row[] = [
  // search_tools: what a model sends as a query.
  ...STRINGS.map(
    ([label, query, within]): Row => ({
      entry: 'search_tools',
      input: `query: ${label}`,
      run: (fixture) => fixture.run('search_tools', { query }),
      outcome: { answer: someAnswer },
      within,
    }),
  ),
  ...PROTOTYPE_NAMES.slice(0, 2).map(
    (query): Row => ({
      entry: 'search_tools',
      input: `query: "${query}" (a tool's id)`,
      run: (fixture) => fixture.run('search_tools', { query }),
      outcome: {
        answer: (output: SearchToolsOutput) => expect(output.results[0]?.name).toBe(query),
      },
    }),
  ),
  {
    entry: 'search_tools',
    input: 'JSON keys __proto__ / constructor holding a query',
    run: (fixture) => fixture.run('search_tools', prototypeKeyedJson({ query: 'weather' })),
    outcome: { answer: noTools },
  },
  ...[
    ['a number', { query: 42 }],
    ['an object with toString', { query: { toString: () => 'weather' } }],
    ['null', null],
    ['an array', ['weather']],
    ['a limit of 10,000', { query: 'weather', limit: 10_000 }],
    ['a limit of NaN', { query: 'weather', limit: Number.NaN }],
  ].map(
    ([label, input]): Row => ({
      entry: 'search_tools',
      input: label as string,
      run: (fixture) => fixture.run('search_tools', input),
      outcome: { answer: noTools },
    }),
  ),

  // load_tool: names a model sends.
  ...STRINGS.map(
    ([label, toolName, within]): Row => ({
      entry: 'load_tool',
      input: `toolName: ${label}`,
      run: (fixture) => fixture.run('load_tool', { toolName }),
      outcome: { answer: notLoaded },
      within,
    }),
  ),
  ...STRINGS.map(
    ([label, name, within]): Row => ({
      entry: 'load_tool',
      input: `toolNames: [${label}]`,
      run: (fixture) => fixture.run('load_tool', { toolNames: [name] }),
      outcome: { answer: notLoaded },
      within,
    }),
  ),
  ...PROTOTYPE_NAMES.slice(0, 2).map(
    (toolName): Row => ({
      entry: 'load_tool',
      input: `toolName: "${toolName}" (a tool's id)`,
      run: (fixture) => fixture.run('load_tool', { toolName }),
      outcome: {
        answer: (output: LoadToolOutput) =>
          expect(output).toMatchObject({ success: true, loaded: [toolName] }),
      },
      changesState: true,
    }),
  ),
  {
    entry: 'load_tool',
    input: 'a JSON key __proto__ smuggling toolNames',
    run: (fixture) =>
      fixture.run(
        'load_tool',
        JSON.parse('{"toolName": "nope", "__proto__": {"toolNames": ["send_email"]}}'),
      ),
    outcome: { answer: notLoaded },
  },
  {
    entry: 'load_tool',
    input: 'toolNames: 100,000 names',
    run: (fixture) => fixture.run('load_tool', { toolNames: MANY_NAMES }),
    outcome: { answer: notLoaded },
  },
  {
    entry: 'load_tool',
    input: 'toolNames: 100,000 copies of a real name',
    run: (fixture) => fixture.run('load_tool', { toolNames: MANY_NAMES.map(() => 'send_email') }),
    outcome: {
      answer: (output: LoadToolOutput) =>
        expect(output).toMatchObject({ success: true, loaded: ['send_email'] }),
    },
    changesState: true,
  },
  ...[
    ['a number', { toolName: 7 }],
    ['toolNames as a string', { toolNames: 'send_email' }],
    ['null', null],
  ].map(
    ([label, input]): Row => ({
      entry: 'load_tool',
      input: label as string,
      run: (fixture) => fixture.run('load_tool', input),
      outcome: { answer: notLoaded },
    }),
  ),

  // unload_tool: names a model sends.
  ...STRINGS.map(
    ([label, name, within]): Row => ({
      entry: 'unload_tool',
      input: `toolNames: [${label}]`,
      run: (fixture) => fixture.run('unload_tool', { toolNames: [name] }),
      outcome: { answer: nothingUnloaded },
      within,
    }),
  ),
  {
    entry: 'unload_tool',
    input: 'toolNames: 100,000 names',
    run: (fixture) => fixture.run('unload_tool', { toolNames: MANY_NAMES }),
    outcome: { answer: nothingUnloaded },
  },

  // The catalog: what third-party tool servers publish.
  ...[
    ['a 10 MB description', { description: TEN_MB }, SLOW],
    ['a cyclic input schema', { description: 'cyclic', inputSchema: cyclicSchema() }, QUICK],
    ['a 10,000-level input schema', { description: 'deep', inputSchema: deepSchema() }, QUICK],
  ].map(
    ([label, tool, within]): Row => ({
      entry: 'createToolSearchEngine',
      input: `a tool with ${label}`,
      run: async () => {
        const engine = createToolSearchEngine<FakeTool>({
          tools: { odd_tool: tool as FakeTool, get_weather: CATALOG.get_weather! },
          describe: (entry, key) => ({
            id: key,
            description: entry.description,
            ...(entry.inputSchema && { inputSchema: entry.inputSchema }),
          }),
        });
        const session = engine.createSession();
        const search = session.metaTools[0]!;
        return search.execute({ query: 'weather' });
      },
      outcome: {
        answer: (output: SearchToolsOutput) => expect(output.results[0]?.name).toBe('get_weather'),
      },
      within: within as number,
    }),
  ),
  {
    entry: 'createToolSearchEngine',
    input: 'a 1 MB tool id, then a model asking for a 1 MB name near it',
    run: async () => {
      const engine = createToolSearchEngine<FakeTool>({
        tools: toToolRecord([['a'.repeat(2 ** 20), { description: 'huge id' }]]),
        describe: (tool, key) => ({ id: key, description: tool.description }),
      });
      const load = engine.createSession().metaTools[1]!;
      return load.execute({ toolName: `b${'a'.repeat(2 ** 20 - 2)}b` });
    },
    outcome: { answer: notLoaded },
    within: SLOW,
  },
  {
    entry: 'createToolSearchEngine',
    input: 'ids __proto__, constructor and hasOwnProperty from JSON',
    run: async () => {
      const tools = JSON.parse(
        '{"__proto__": {"description": "a"}, "constructor": {"description": "b"}, "hasOwnProperty": {"description": "c"}}',
      ) as Record<string, FakeTool>;
      const engine = createToolSearchEngine<FakeTool>({
        tools,
        describe: (tool, key) => ({ id: key, description: tool.description }),
      });
      return engine.index.ids();
    },
    outcome: {
      answer: (ids: string[]) =>
        expect(ids).toEqual(['__proto__', 'constructor', 'hasOwnProperty']),
    },
  },
  ...[
    [
      'describe throws',
      () => {
        throw new Error('bad server');
      },
      /bad server/,
    ],
    ['describe gives an empty id', () => ({ id: '' }), /has no id/],
    ['describe gives a number id', () => ({ id: 7 as unknown as string }), /has no id/],
    ['describe gives a meta-tool name', () => ({ id: 'load_tool' }), /reserved/],
  ].map(
    ([label, describeTool, error]): Row => ({
      entry: 'createToolSearchEngine',
      input: label as string,
      run: () =>
        createToolSearchEngine<FakeTool>({
          tools: { some_tool: { description: 'x' } },
          describe: describeTool as never,
        }),
      outcome: { error: error as RegExp },
    }),
  ),
  {
    entry: 'engine.createSession',
    input: 'request-resolved tools with 10,000 entries and prototype names',
    run: async () => {
      const engine = createToolSearchEngine<FakeTool>({
        tools: CATALOG,
        describe: (tool, key) => ({ id: key, description: tool.description }),
      });
      const resolvedTools = toToolRecord<FakeTool>([
        ...MANY_NAMES.slice(0, 10_000).map((name): [string, FakeTool] => [
          name,
          { description: 'resolved' },
        ]),
        ...PROTOTYPE_NAMES.map((name): [string, FakeTool] => [name, { description: 'resolved' }]),
      ]);
      const session = engine.createSession({ resolvedTools });
      return session.metaTools[0]!.execute({ query: 'tool_9999' });
    },
    outcome: {
      answer: (output: SearchToolsOutput) => expect(output.results[0]?.name).toBe('tool_9999'),
    },
    within: SLOW,
  },

  // The filter: an operator's policy that fails.
  ...[
    [
      'throws',
      () => {
        throw new Error('policy down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('policy down'))],
    ['hangs', () => new Promise<boolean>(() => {})],
    ['answers "yes"', () => 'yes'],
    ['answers 1', () => Promise.resolve(1)],
    ['answers undefined', () => undefined],
  ].flatMap(([label, filter]): Row[] => [
    {
      entry: 'filter',
      input: `a filter that ${label}, during search_tools`,
      options: { filter: filter as never },
      run: (fixture) => fixture.run('search_tools', { query: 'email' }),
      outcome: { answer: noTools },
    },
    {
      entry: 'filter',
      input: `a filter that ${label}, during load_tool`,
      options: { filter: filter as never },
      run: (fixture) => fixture.run('load_tool', { toolName: 'send_email' }),
      outcome: { answer: notLoaded },
    },
  ]),
];

describe('core entry points under hostile input', () => {
  for (const row of ROWS) {
    const expectation =
      'answer' in row.outcome ? 'a clear answer' : `the error ${row.outcome.error}`;
    it(
      `${row.entry}: ${row.input} → ${expectation}${row.changesState ? '' : ', state unchanged'}, within ${(row.within ?? QUICK) / 1000} s`,
      async () => {
        const fixture = await createFixture(row.options);
        // The filter rows deny everything, so the thread starts empty there: snapshot after set-up.
        const before = await snapshot(fixture);
        if ('error' in row.outcome) {
          await expect(Promise.resolve().then(() => row.run(fixture))).rejects.toThrow(
            row.outcome.error,
          );
        } else {
          (row.outcome.answer as (output: unknown) => void)(await row.run(fixture));
        }
        if (!row.changesState) expect(await snapshot(fixture)).toEqual(before);
      },
      row.within ?? QUICK,
    );
  }
});
