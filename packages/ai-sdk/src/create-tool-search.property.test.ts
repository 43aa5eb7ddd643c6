/**
 * Model-based property tests of the AI SDK adapter, through each major's real `generateText`
 * with a scripted model: random turns of several conversations (two threads and an anonymous
 * caller), each a search, load, unload or call of any tool (loaded or not), with filter changes,
 * clock advances past the ttl, restarts (a new `createToolSearch` on the same messages and
 * store) and store failures in between. After every turn: each step offered exactly the
 * meta-tools, the allowed pins and the loaded tools the reference model predicts (in load order
 * on ai 7), or under `expose: 'proxy'` the meta-tools and allowed pins only; a tool ran only when
 * it was offered (or, under proxy, active when `call_tool` named it); no conversation saw
 * another's loads.
 *
 * A failure prints the variables that replay it (seed, path and the commands' replay path).
 */
import fc from 'fast-check';
import { createMemoryStore, type LoadedToolsStore, type MemoryStore } from 'tool-search-core';
import {
  AdvanceCommand,
  FailCommand,
  failingStore,
  PolicyCommand,
} from 'tool-search-testing/adapter-commands';
import { AdapterModel, type Phase } from 'tool-search-testing/adapter-model';
import { commandsConstraints, propertyRuns } from 'tool-search-testing/property-runs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolSearch, type ToolSearch } from './create-tool-search';
import { AI_MAJORS, type AiMajor } from './test-utils/ai-majors';
import { createCatalog, type Executions } from './test-utils/catalog';
import { type Catalog, type Context, toolResultsOf, withContext } from './test-utils/setup';

/** A valid input for each catalog tool, so an offered tool really runs when called. */
const INPUTS: Record<string, Record<string, unknown>> = {
  send_email: { to: 'a@b.c', body: 'hi' },
  get_weather: { city: 'Paris' },
  create_issue: { repo: 'acme/app', title: 'Bug' },
  list_calendar_events: { from: '2025-01-01' },
  convert_currency: { amount: 1, from: 'EUR', to: 'USD' },
  translate_text: { text: 'hello', language: 'fr' },
  mcp_lookup: { salesforceAccountId: '001' },
};
const CATALOG_IDS = Object.keys(INPUTS);
const KNOWN: ReadonlySet<string> = new Set(CATALOG_IDS);
const NAMES = [...CATALOG_IDS, 'search_tools', '__proto__', 'constructor', 'nope', ''];
const QUERIES = ['weather forecast', 'email', 'github issue', 'currency', 'crm record', '', '*'];

type Storage = 'context' | 'in-memory' | 'store';
interface Config {
  major: AiMajor['name'];
  expose: 'tools' | 'proxy';
  storage: Storage;
  autoLoad: boolean;
  maxLoadedTools: number | undefined;
  pinned: string[];
  unloadTool: boolean;
  filter: boolean;
  ttl: number;
}
const TTL = 1_000;

const configArbitrary: fc.Arbitrary<Config> = fc.record({
  major: fc.constantFrom(...AI_MAJORS.map((major) => major.name)),
  expose: fc.constantFrom<'tools' | 'proxy'>('tools', 'proxy'),
  storage: fc.constantFrom<Storage>('context', 'in-memory', 'store'),
  autoLoad: fc.boolean(),
  maxLoadedTools: fc.constantFrom(undefined, 1, 2),
  pinned: fc.constantFrom([], ['create_issue']),
  unloadTool: fc.boolean(),
  filter: fc.boolean(),
  ttl: fc.constantFrom(0, TTL),
});

const CONVERSATIONS = ['ada', 'grace', 'anonymous'] as const;
type Conversation = (typeof CONVERSATIONS)[number];
const threadOf = (conversation: Conversation) =>
  conversation === 'anonymous' ? undefined : conversation;

type Action =
  | { type: 'search'; query: string }
  | { type: 'load'; names: string[]; single: boolean }
  | { type: 'unload'; names: string[] }
  | { type: 'call'; name: string }
  | { type: 'answer' };

/** The app: the tool search, its catalog's executions, and each conversation's messages. */
class World {
  readonly config: Config;
  readonly major: AiMajor;
  readonly policy = new Map<string, 'deny' | 'throw'>();
  readonly history = new Map<Conversation, unknown[]>(CONVERSATIONS.map((c) => [c, []]));
  readonly tools: Catalog;
  readonly executions: Executions;
  readonly memory: MemoryStore | undefined;
  failing = false;
  toolSearch: ToolSearch<Catalog, Context, 'tools' | 'proxy'>;

  constructor(config: Config) {
    this.config = config;
    this.major = AI_MAJORS.find((major) => major.name === config.major)!;
    ({ tools: this.tools, executions: this.executions } = createCatalog(this.major));
    if (config.storage === 'store')
      this.memory = createMemoryStore({ ttl: config.ttl, maxThreads: 100 });
    this.toolSearch = this.create();
  }

  create(): ToolSearch<Catalog, Context, 'tools' | 'proxy'> {
    const { config } = this;
    const storage: 'context' | 'in-memory' | LoadedToolsStore =
      config.storage === 'store' ? failingStore(this.memory!, () => this.failing) : config.storage;
    return createToolSearch<Catalog, Context, 'tools' | 'proxy'>({
      toolSearch: true,
      tools: this.tools,
      expose: config.expose,
      storage,
      threadId: (context) => context?.userId,
      search: { autoLoad: config.autoLoad, topK: 2 },
      ...(config.storage === 'in-memory' && { ttl: config.ttl }),
      ...(config.maxLoadedTools !== undefined && { maxLoadedTools: config.maxLoadedTools }),
      alwaysLoaded: config.pinned as (keyof Catalog & string)[],
      unloadTool: config.unloadTool,
      ...(config.filter && {
        filter: ({ toolName, phase }) => {
          const verdict = this.policy.get(`${phase}:${toolName}`);
          if (verdict === 'throw') throw new Error('policy service failed');
          return verdict !== 'deny';
        },
      }),
    });
  }

  get metaNames(): string[] {
    return [
      'search_tools',
      ...(this.config.autoLoad ? [] : ['load_tool']),
      ...(this.config.expose === 'proxy' ? ['call_tool'] : []),
      ...(this.config.unloadTool ? ['unload_tool'] : []),
    ];
  }

  /** What a step offers besides the meta-tools, of the tools that are active. */
  offered(active: readonly string[]): string[] {
    return this.config.expose === 'proxy'
      ? active.filter((id) => this.config.pinned.includes(id))
      : [...active];
  }

  runs(): number {
    return Object.values(this.executions).reduce((sum, calls) => sum + calls.length, 0);
  }
}

function toolCallOf(
  action: Action,
  expose: Config['expose'],
): { toolName: string; input: Record<string, unknown> } | undefined {
  switch (action.type) {
    case 'search':
      return { toolName: 'search_tools', input: { query: action.query } };
    case 'load':
      return {
        toolName: 'load_tool',
        input: action.single ? { toolName: action.names[0] } : { toolNames: action.names },
      };
    case 'unload':
      return { toolName: 'unload_tool', input: { toolNames: action.names } };
    case 'call':
      return expose === 'proxy'
        ? {
            toolName: 'call_tool',
            input: { name: action.name, arguments: INPUTS[action.name] ?? {} },
          }
        : { toolName: action.name, input: INPUTS[action.name] ?? {} };
    case 'answer':
      return undefined;
  }
}

/** Compares the tools a step offered: in order on ai 7 (`toolOrder`), as a set before. */
function expectOffered(
  world: World,
  sent: string[] | undefined,
  expected: string[],
  label: string,
) {
  const wanted = [...world.metaNames, ...world.offered(expected)];
  if (world.config.major === 'ai 7') expect(sent, label).toEqual(wanted);
  else expect([...(sent ?? [])].sort(), label).toEqual([...wanted].sort());
}

type AiCommand = fc.AsyncCommand<AdapterModel & { config: Config }, World>;

/**
 * ai 5 and 6 look a called tool up on a plain object: a call named like an `Object.prototype`
 * member gets no tool result at all, and ai 6 then rejects the conversation on the next call
 * (`MissingToolResultsError`). Nothing runs (the hostile-input suite checks that); the property
 * leaves those names to ai 7, which answers them as unknown tools.
 */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'toString']);

class TurnCommand implements AiCommand {
  constructor(
    readonly conversation: Conversation,
    readonly action: Action,
  ) {}
  check = (model: Readonly<AdapterModel & { config: Config }>) =>
    model.config.major === 'ai 7' ||
    this.action.type !== 'call' ||
    !PROTOTYPE_NAMES.has(this.action.name);
  async run(model: AdapterModel & { config: Config }, world: World) {
    const { config } = model;
    const thread = threadOf(this.conversation);
    const stored = config.storage !== 'context' && thread !== undefined;
    const key = stored ? `thread:${thread}` : `conversation:${this.conversation}`;
    const storeDown = stored && world.failing;
    if (stored && !storeDown) model.access(key);
    const view = { known: KNOWN, fromContext: !stored, storeDown };
    const before = model.expectedActive(key, view);

    const call = toolCallOf(this.action, config.expose);
    const { model: languageModel, sentTools } = world.major.scriptedModel([
      ...(call ? [{ toolCalls: [call] }] : []),
      { text: 'ok' },
    ]);
    const runsBefore = world.runs();
    const messages = [...world.history.get(this.conversation)!, { role: 'user', content: 'go' }];
    const result = await world.major.generateText({
      model: languageModel,
      tools: world.toolSearch.tools,
      ...withContext(world.major, world.toolSearch, thread ? { userId: thread } : {}),
      stopWhen: world.major.stepCountIs(2),
      messages,
    });
    const sent = sentTools();
    expectOffered(world, sent[0], before, 'first step');

    // A catalog tool runs only when the step offered it, whatever the model called; under
    // proxy, when it was active as call_tool named it.
    // Under proxy, call_tool also loads and runs a tool that was not active, when allowed.
    const target = this.action.type === 'call' ? this.action.name : undefined;
    const active = target !== undefined && before.includes(target);
    const loadsByCall =
      target !== undefined &&
      !active &&
      config.expose === 'proxy' &&
      model.runsByCall(target, view);
    expect(world.runs() - runsBefore, `runs of ${target}`).toBe(active || loadsByCall ? 1 : 0);
    if (loadsByCall && stored) {
      const state = await world.toolSearch.engine.store!.get(thread!);
      model.applyCallLoad(key, target, state?.tools.map((entry) => entry.id) ?? []);
    }

    for (const { toolName, output } of toolResultsOf(result)) {
      const fields = output as {
        success?: boolean;
        loaded?: string[];
        alreadyLoaded?: string[];
        evicted?: string[];
        unloaded?: string[];
        toolName?: string;
        results?: { name: string }[];
        activation?: { loaded: string[] };
      };
      if (toolName === 'load_tool' && this.action.type === 'load') {
        const requested = new Set(
          (this.action.single ? this.action.names.slice(0, 1) : this.action.names).filter((name) =>
            KNOWN.has(name),
          ),
        );
        // With the store down nothing can load; only a pinned tool reads as (already) loaded.
        if (storeDown)
          for (const id of [...(fields.loaded ?? []), ...(fields.alreadyLoaded ?? [])])
            expect(model.options.pinned).toContain(id);
        else model.applyLoad(key, fields, requested, KNOWN, view.fromContext);
      } else if (toolName === 'search_tools') {
        for (const hit of fields.results ?? []) {
          expect(KNOWN.has(hit.name)).toBe(true);
          expect(model.allows(hit.name, 'search')).toBe(true);
        }
        if (fields.activation) {
          // With the store down, only pinned results can read as loaded (no store call).
          if (storeDown)
            for (const id of fields.activation.loaded) expect(model.options.pinned).toContain(id);
          model.applyLoad(
            key,
            { loaded: fields.activation.loaded, evicted: fields.evicted },
            new Set(fields.results?.map((hit) => hit.name)),
            KNOWN,
            view.fromContext,
          );
        }
      } else if (toolName === 'unload_tool' && !storeDown) {
        model.applyUnload(key, fields.unloaded ?? []);
      }
    }
    const after = model.expectedActive(key, view);
    if (sent.length > 1) expectOffered(world, sent[1], after, 'second step');
    world.history
      .get(this.conversation)!
      .push({ role: 'user', content: 'go' }, ...(await world.major.responseMessages(result)));
  }
  toString = () => `turn(${this.conversation}, ${JSON.stringify(this.action)})`;
}

class RestartCommand implements AiCommand {
  check = () => true;
  async run(model: AdapterModel & { config: Config }, world: World) {
    world.toolSearch.engine.dispose();
    world.toolSearch = world.create();
    // The built-in store lives in the process: a restart forgets every thread.
    if (model.config.storage === 'in-memory')
      model.forgetStored(CONVERSATIONS.map((conversation) => `thread:${conversation}`));
  }
  toString = () => 'restart';
}

const nameArbitrary = fc.constantFrom(...NAMES);
const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  fc.constantFrom(...QUERIES).map((query) => ({ type: 'search' as const, query })),
  fc
    .tuple(fc.array(nameArbitrary, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([names, single]) => ({ type: 'load' as const, names, single })),
  fc
    .array(nameArbitrary, { minLength: 1, maxLength: 2 })
    .map((names) => ({ type: 'unload' as const, names })),
  { weight: 2, arbitrary: nameArbitrary.map((name) => ({ type: 'call' as const, name })) },
  fc.constant({ type: 'answer' as const }),
);

const turnArbitrary = fc
  .tuple(fc.constantFrom(...CONVERSATIONS), actionArbitrary)
  .map(([conversation, action]): AiCommand => new TurnCommand(conversation, action));
const commandArbitraries: fc.Arbitrary<AiCommand>[] = [
  // Turns are what the property is about: listed several times, they come up more often.
  turnArbitrary,
  turnArbitrary,
  turnArbitrary,
  turnArbitrary,
  fc
    .tuple(
      fc.constantFrom(...CATALOG_IDS),
      fc.constantFrom<Phase>('search', 'load', 'active'),
      fc.constantFrom('allow' as const, 'deny' as const, 'throw' as const),
    )
    .map(([id, phase, verdict]) => new PolicyCommand(id, phase, verdict)),
  fc.constantFrom(1, TTL + 1).map((ms) => new AdvanceCommand(ms)),
  fc.constant(new RestartCommand()),
  fc.boolean().map((failing) => new FailCommand(failing)),
];

/** A hang guard for the whole property, not a speed gate. */
const HANG_GUARD = 300_000;

describe('createToolSearch under random use', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it(
    'offers exactly the predicted tools each step and never runs a tool it did not offer',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          configArbitrary,
          fc.commands(commandArbitraries, commandsConstraints(12)),
          async (config, commands) => {
            const model = Object.assign(
              new AdapterModel({
                pinned: config.pinned,
                maxLoadedTools: config.maxLoadedTools,
                ttl: config.ttl,
                filter: config.filter,
              }),
              { config },
            );
            vi.setSystemTime(model.clock);
            const world = new World(config);
            try {
              await fc.asyncModelRun(() => ({ model, real: world }), commands);
            } finally {
              world.toolSearch.engine.dispose();
              world.memory?.dispose();
            }
          },
        ),
        propertyRuns('ai-sdk adapter', 1_200),
      );
    },
    HANG_GUARD,
  );
});
