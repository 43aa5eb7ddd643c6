/**
 * Model-based property tests of `toolSearchMiddleware`, through langchain's real `createAgent`
 * with a scripted `fakeModel()` and a checkpointer: random turns of several conversations (two
 * threads and an anonymous caller who resends its messages), each a search, load, unload or call
 * of any tool (loaded or not), with filter changes, clock advances past the ttl, restarts (a new
 * middleware on the same checkpointer and store) and store failures in between. After every turn:
 * each model call was bound exactly the meta-tools and the allowed pinned and loaded tools the
 * reference model predicts, in load order; a catalog tool ran only when it was bound; no
 * conversation saw another's loads.
 *
 * A failure prints the variables that replay it (seed, path and the commands' replay path).
 */
import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import fc from 'fast-check';
import { createAgent } from 'langchain';
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
import { z } from 'zod';
import { type CallLog, recordBoundTools, type Step, scriptedModel } from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';

/** A valid input for each catalog tool, so a bound tool really runs when called. */
const INPUTS: Record<string, Record<string, unknown>> = {
  get_weather: { city: 'Lisbon' },
  send_email: { to: 'a@b.c' },
  create_issue: { repo: 'acme/app', title: 'Bug' },
  list_files: {},
  translate_text: {},
  create_invoice: {},
  book_meeting: {},
};
const CATALOG_IDS = Object.keys(INPUTS);

/** The catalog, every tool logging its runs. */
function createCatalog(log: CallLog) {
  const schemas: Record<string, z.ZodObject> = {
    get_weather: z.object({ city: z.string().describe('City name') }),
    send_email: z.object({ to: z.string().describe('Recipient address') }),
    create_issue: z.object({ repo: z.string(), title: z.string() }),
  };
  const descriptions: Record<string, string> = {
    get_weather: 'Get the current weather forecast for a city',
    send_email: 'Send an email message to a recipient',
    create_issue: 'Open an issue in a GitHub repository',
  };
  return CATALOG_IDS.map((name) =>
    tool(
      () => {
        log.push(name);
        return `${name} done`;
      },
      {
        name,
        description: descriptions[name] ?? `${name.replace('_', ' ')} in the workspace`,
        schema: schemas[name] ?? z.object({}),
      },
    ),
  );
}
const KNOWN: ReadonlySet<string> = new Set(CATALOG_IDS);
const NAMES = [...CATALOG_IDS, 'search_tools', 'nope', ''];
const QUERIES = ['weather forecast', 'email', 'github issue', 'invoice', 'files', '', '"'];

type Storage = 'context' | 'in-memory' | 'store';
interface Config {
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
  expose: fc.constantFrom<'tools' | 'proxy'>('tools', 'proxy'),
  storage: fc.constantFrom<Storage>('context', 'in-memory', 'store'),
  autoLoad: fc.boolean(),
  maxLoadedTools: fc.constantFrom(undefined, 1, 2),
  pinned: fc.constantFrom([], ['list_files']),
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

type M = AdapterModel & { config: Config };

class World {
  readonly config: Config;
  readonly log: CallLog = [];
  readonly catalog: ReturnType<typeof createCatalog>;
  readonly policy = new Map<string, 'deny' | 'throw'>();
  readonly checkpointer = new MemorySaver();
  /** The anonymous caller keeps its own messages and sends them with each turn. */
  anonymousMessages: BaseMessage[] = [];
  readonly memory: MemoryStore | undefined;
  failing = false;
  middleware: ReturnType<typeof toolSearchMiddleware>;

  constructor(config: Config) {
    this.config = config;
    this.catalog = createCatalog(this.log);
    if (config.storage === 'store')
      this.memory = createMemoryStore({ ttl: config.ttl, maxThreads: 100 });
    this.middleware = this.create();
  }

  create(): ReturnType<typeof toolSearchMiddleware> {
    const { config } = this;
    return toolSearchMiddleware({
      toolSearch: true,
      tools: this.catalog,
      expose: config.expose,
      storage:
        config.storage === 'store'
          ? failingStore(this.memory!, () => this.failing)
          : config.storage,
      ...(config.storage === 'in-memory' && { ttl: config.ttl }),
      search: { autoLoad: config.autoLoad, topK: 2 },
      ...(config.maxLoadedTools !== undefined && { maxLoadedTools: config.maxLoadedTools }),
      alwaysLoaded: config.pinned,
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

  /** The store the threads live in: the in-memory store the engine made, or ours. */
  store(): LoadedToolsStore | undefined {
    return this.memory ?? this.middleware.engine.store;
  }

  get metaNames(): string[] {
    return [
      'search_tools',
      ...(this.config.autoLoad ? [] : ['load_tool']),
      ...(this.config.expose === 'proxy' ? ['call_tool'] : []),
      ...(this.config.unloadTool ? ['unload_tool'] : []),
    ];
  }

  /** What a model call is bound to besides the meta-tools, of the tools that are active. */
  bound(active: readonly string[]): string[] {
    return this.config.expose === 'proxy'
      ? active.filter((id) => this.config.pinned.includes(id))
      : [...active];
  }
}

function stepsOf(action: Action, expose: Config['expose']): Step[] {
  const answer: Step = { answer: 'ok' };
  switch (action.type) {
    case 'search':
      return [{ calls: [{ name: 'search_tools', args: { query: action.query } }] }, answer];
    case 'load':
      return [
        {
          calls: [
            {
              name: 'load_tool',
              args: action.single ? { toolName: action.names[0] } : { toolNames: action.names },
            },
          ],
        },
        answer,
      ];
    case 'unload':
      return [{ calls: [{ name: 'unload_tool', args: { toolNames: action.names } }] }, answer];
    case 'call': {
      const args = INPUTS[action.name] ?? {};
      const call =
        expose === 'proxy'
          ? { name: 'call_tool', args: { name: action.name, arguments: args } }
          : { name: action.name, args };
      return [{ calls: [call] }, answer];
    }
    case 'answer':
      return [answer];
  }
}

type LangChainCommand = fc.AsyncCommand<M, World>;

class TurnCommand implements LangChainCommand {
  constructor(
    readonly conversation: Conversation,
    readonly action: Action,
  ) {}
  check = () => true;
  async run(model: M, world: World) {
    const { config } = model;
    const thread = threadOf(this.conversation);
    const stored = config.storage !== 'context' && thread !== undefined;
    const key = stored ? `thread:${thread}` : `conversation:${this.conversation}`;
    const storeDown = stored && world.failing;
    if (stored && !storeDown) model.access(key);
    const view = { known: KNOWN, fromContext: !stored, storeDown };
    const before = model.expectedActive(key, view);

    const recorder = recordBoundTools();
    const agent = createAgent({
      model: scriptedModel(stepsOf(this.action, config.expose)),
      tools: [],
      middleware: [world.middleware, recorder.middleware],
      // The anonymous caller has no thread for a checkpointer: it resends its messages.
      ...(thread && { checkpointer: world.checkpointer }),
    });
    const runs = world.log.length;
    const question = new HumanMessage('go');
    const previous = thread ? [] : world.anonymousMessages;
    const result = await agent.invoke(
      { messages: [...previous, question] },
      thread ? { configurable: { thread_id: thread } } : {},
    );
    if (!thread) world.anonymousMessages = result.messages;
    expect(recorder.calls[0], 'first call').toEqual([...world.metaNames, ...world.bound(before)]);

    // A catalog tool runs only when the model call was bound to it, whatever the model called;
    // under proxy, when it was active as call_tool named it.
    const called = this.action.type === 'call' ? this.action.name : undefined;
    const active = called !== undefined && before.includes(called);
    const loadsByCall =
      called !== undefined &&
      !active &&
      config.expose === 'proxy' &&
      model.runsByCall(called, view);
    expect(world.log.length - runs, `runs of ${called}`).toBe(active || loadsByCall ? 1 : 0);
    if (loadsByCall && stored) {
      const state = await world.store()!.get(thread!);
      model.applyCallLoad(key, called, state?.tools.map((entry) => entry.id) ?? []);
    }

    const turnMessages = result.messages.slice(result.messages.indexOf(question));
    for (const message of turnMessages) {
      if (!ToolMessage.isInstance(message) || message.status === 'error') continue;
      if (!['search_tools', 'load_tool', 'unload_tool'].includes(message.name ?? '')) continue;
      const output = JSON.parse(message.text) as {
        success?: boolean;
        loaded?: string[];
        alreadyLoaded?: string[];
        evicted?: string[];
        unloaded?: string[];
        results?: { name: string }[];
        activation?: { loaded: string[] };
      };
      const action = this.action;
      if (message.name === 'load_tool' && action.type === 'load') {
        const requested = new Set(
          (action.single ? action.names.slice(0, 1) : action.names).filter((id) => KNOWN.has(id)),
        );
        if (storeDown)
          for (const id of [...(output.loaded ?? []), ...(output.alreadyLoaded ?? [])])
            expect(model.options.pinned).toContain(id);
        else model.applyLoad(key, output, requested, KNOWN, view.fromContext);
      } else if (message.name === 'search_tools') {
        for (const hit of output.results ?? []) {
          expect(KNOWN.has(hit.name)).toBe(true);
          expect(model.allows(hit.name, 'search')).toBe(true);
        }
        if (output.activation)
          model.applyLoad(
            key,
            { loaded: output.activation.loaded, evicted: output.evicted },
            new Set(output.results?.map((hit) => hit.name)),
            KNOWN,
            view.fromContext,
          );
      } else if (message.name === 'unload_tool' && !storeDown) {
        model.applyUnload(key, output.unloaded ?? []);
      }
    }
    const after = model.expectedActive(key, view);
    if (recorder.calls.length > 1)
      expect(recorder.calls[1], 'second call').toEqual([...world.metaNames, ...world.bound(after)]);
  }
  toString = () => `turn(${this.conversation}, ${JSON.stringify(this.action)})`;
}

class RestartCommand implements LangChainCommand {
  check = () => true;
  async run(model: M, world: World) {
    world.middleware = world.create();
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
  .map(([conversation, action]): LangChainCommand => new TurnCommand(conversation, action));
const commandArbitraries: fc.Arbitrary<LangChainCommand>[] = [
  // Turns are what the property is about: listed several times, they come up more often.
  turnArbitrary,
  turnArbitrary,
  turnArbitrary,
  turnArbitrary,
  fc
    .tuple(
      fc.constantFrom('get_weather', 'send_email', 'list_files'),
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

describe('toolSearchMiddleware under random use', () => {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it(
    'binds exactly the predicted tools each model call and never runs a tool it did not bind',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          configArbitrary,
          fc.commands(commandArbitraries, commandsConstraints(10)),
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
              world.memory?.dispose();
            }
          },
        ),
        propertyRuns('langchain adapter', 150),
      );
    },
    HANG_GUARD,
  );
});
