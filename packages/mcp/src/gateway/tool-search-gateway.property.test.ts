/**
 * Model-based property tests of the gateway's sessions, through the MCP SDK's own client (over an
 * in-memory pair or Streamable HTTP) and a real upstream over HTTP that counts what it runs:
 * random searches, loads, unloads, parallel loads, calls of loaded and unloaded tools (by name and
 * through `call_tool`), session switches and disconnects, and upstream failures. After every
 * command, for every open session:
 * - `tools/list` is exactly the meta-tools, the pinned tools, then the session's loaded tools in
 *   load order (under `expose: 'proxy'`, never the loaded ones);
 * - the loaded tools only append, except for what a result reported as evicted or unloaded;
 * - sessions never see each other's loads;
 * - the upstream ran exactly the calls of tools that were active in the calling session, with
 *   the client's arguments: a tool that is not loaded is never executed, whatever the client calls;
 * - a session that disconnects leaves nothing behind (the gateway's sessions, its stored thread).
 *
 * One piece: the reference model of the sessions, the commands that drive the gateway and the
 * model alike, and the checks after every command share one model's state; split, each part
 * would have to re-declare it.
 *
 * A failure prints the variables that replay it (seed, path and the commands' replay path).
 */
import {
  Client,
  InMemoryTransport,
  ProtocolError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { commandsConstraints, propertyRuns } from 'tool-search-testing/property-runs';
import {
  type ModelChange as Change,
  type ModelEntry as Entry,
  modelLoad,
} from 'tool-search-testing/store-model';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CountingUpstream, startCountingUpstream } from '../test-utils/counting-upstream';
import { callTool, listToolNames, textOf } from '../test-utils/harness';
import { createUpstreamManager } from '../upstream/upstream-manager';
import { type GatewayHttpServer, serveGatewayHttp } from './serve-http';
import { createToolSearchGateway, type ToolSearchGateway } from './tool-search-gateway';

// ---------------------------------------------------------------------------------------------
// The upstream and the names the gateway must give its tools

/** `[upstream name, exposed name]`: `<server>__<tool>`, odd characters as `_`, collisions `_2`. */
const EXPOSED_TOOLS: readonly (readonly [string, string])[] = [
  ['get_weather', 'up__get_weather'],
  ['get weather', 'up__get_weather_2'],
  ['send_email', 'up__send_email'],
  ['create_issue', 'up__create_issue'],
  ['__proto__', 'up____proto__'],
  ['constructor', 'up__constructor'],
  ['hasOwnProperty', 'up__hasOwnProperty'],
  ['echo', 'up__echo'],
  ['天气', 'up____'],
];
/** Offered by the upstream, kept out by the config's `denyTools`: never listed, never run. */
const DENIED_TOOL = 'delete_repo';
const EXPOSED = new Map(EXPOSED_TOOLS.map(([upstream, exposed]) => [exposed, upstream]));
const META_NAMES = ['search_tools', 'load_tool', 'unload_tool', 'call_tool'];

/** Names a client may send: exposed names, the denied tool, upstream names, unknown and hostile ones. */
const NAMES = [
  ...EXPOSED.keys(),
  `up__${DENIED_TOOL}`,
  'up__get weather',
  'get_weather',
  'GET_WEATHER',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'nope',
  '',
];
const QUERIES = [
  'weather',
  'get weather forecast',
  'email',
  'issue',
  '__proto__',
  'constructor',
  '天气',
  'delete repo',
  'operation test upstream',
  '',
  '.*+?()[]{}|^$',
];

// ---------------------------------------------------------------------------------------------
// The configuration of one run

type TransportKind = 'memory' | 'http';
interface Config {
  transport: TransportKind;
  expose: 'tools' | 'proxy';
  autoLoad: boolean;
  unloadTool: boolean;
  maxLoadedTools: number | undefined;
  alwaysLoaded: string[];
  topK: number;
}

const configArbitrary: fc.Arbitrary<Config> = fc.record({
  transport: fc.constantFrom<TransportKind>(
    'memory',
    'memory',
    'memory',
    'memory',
    'memory',
    'http',
  ),
  expose: fc.constantFrom<'tools' | 'proxy'>('tools', 'tools', 'proxy'),
  autoLoad: fc.boolean(),
  unloadTool: fc.boolean(),
  maxLoadedTools: fc.constantFrom(undefined, 1, 2, 3),
  // A pin no upstream offers is ignored (with a warning in the log).
  alwaysLoaded: fc.constantFrom([], ['up__echo'], ['up__missing', 'up____proto__']),
  topK: fc.integer({ min: 1, max: 4 }),
});

/** Client sessions: a slot is opened on first use and may be closed and opened again. */
const SLOTS = 3;
type Slot = number;

// ---------------------------------------------------------------------------------------------
// The reference model

class Model {
  readonly config: Config;
  clock = 1_000_000;
  /** Each open session's loaded tools; `undefined` for a slot with no open session. */
  readonly sessions: (Entry[] | undefined)[] = Array.from({ length: SLOTS }, () => undefined);
  mode: CountingUpstream['mode'] = 'ok';
  /** Executions the upstream should have seen so far. */
  readonly executions: { tool: string; arguments: Record<string, unknown> }[] = [];
  calls = 0;

  constructor(config: Config) {
    this.config = config;
  }

  get pinned(): string[] {
    return this.config.alwaysLoaded.filter((name) => EXPOSED.has(name));
  }

  get metaNames(): string[] {
    return [
      'search_tools',
      ...(this.config.autoLoad ? [] : ['load_tool']),
      ...(this.config.expose === 'proxy' ? ['call_tool'] : []),
      ...(this.config.unloadTool ? ['unload_tool'] : []),
    ];
  }

  entries(slot: Slot): Entry[] {
    this.sessions[slot] ??= [];
    return this.sessions[slot];
  }

  /** What `tools/list` must answer for a session. */
  listed(slot: Slot): string[] {
    const loaded =
      this.config.expose === 'tools' ? this.entries(slot).map((entry) => entry.id) : [];
    return [...this.metaNames, ...this.pinned, ...loaded];
  }

  isActive(slot: Slot, name: string): boolean {
    return this.pinned.includes(name) || this.entries(slot).some((entry) => entry.id === name);
  }
}

// ---------------------------------------------------------------------------------------------
// The system under test

interface OpenSession {
  client: Client;
  /** The thread its loads are kept under (the MCP session id over HTTP). */
  threadId: string;
  transport: InMemoryTransport | StreamableHTTPClientTransport;
}

class World {
  readonly config: Config;
  readonly upstream: CountingUpstream;
  gateway!: ToolSearchGateway;
  http: GatewayHttpServer | undefined;
  readonly sessions: (OpenSession | undefined)[] = Array.from({ length: SLOTS }, () => undefined);
  /** The loaded tools each slot showed last, for the append-only check. */
  readonly observed = new Map<Slot, string[]>();
  #nextThread = 0;

  constructor(config: Config, upstream: CountingUpstream) {
    this.config = config;
    this.upstream = upstream;
  }

  async start(): Promise<void> {
    const { config } = this;
    const upstreams = createUpstreamManager({
      servers: { up: { url: this.upstream.url.href, denyTools: ['delete_*'] } },
      // No backoff: a failed upstream is tried again on the next call, so outcomes do not depend on time.
      restartBackoff: { initial: 0, max: 0 },
      // The tool list from a cache: the upstream is reached on the first forwarded call, as a
      // gateway with a warm cache does, and a run that forwards nothing costs no connection.
      cache: {
        dir: '(memory)',
        read: async () => [...this.upstream.tools],
        write: async () => undefined,
      },
      log: () => undefined,
    });
    this.gateway = createToolSearchGateway({
      upstreams,
      toolSearch: {
        enabled: true,
        expose: config.expose,
        autoLoad: config.autoLoad,
        unloadTool: config.unloadTool,
        alwaysLoaded: config.alwaysLoaded,
        topK: config.topK,
        ...(config.maxLoadedTools !== undefined && { maxLoadedTools: config.maxLoadedTools }),
      },
      log: () => undefined,
    });
    await this.gateway.ready();
    if (config.transport === 'http') this.http = await serveGatewayHttp(this.gateway, { port: 0 });
  }

  async session(slot: Slot): Promise<OpenSession> {
    const open = this.sessions[slot];
    if (open) return open;
    const client = new Client({ name: `client-${slot}`, version: '1.0.0' });
    let session: OpenSession;
    if (this.http) {
      const transport = new StreamableHTTPClientTransport(this.http.url);
      await client.connect(transport);
      session = { client, transport, threadId: transport.sessionId! };
    } else {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const threadId = `thread-${this.#nextThread++}`;
      await this.gateway.connect(serverSide, { threadId, forgetOnClose: true });
      await client.connect(clientSide);
      session = { client, transport: clientSide, threadId };
    }
    this.sessions[slot] = session;
    return session;
  }

  async disconnect(slot: Slot): Promise<string | undefined> {
    const open = this.sessions[slot];
    if (!open) return undefined;
    this.sessions[slot] = undefined;
    this.observed.delete(slot);
    // Over HTTP a client ends its session with a DELETE; closing the client alone only drops the connection.
    if (open.transport instanceof StreamableHTTPClientTransport)
      await open.transport.terminateSession();
    await open.client.close();
    return open.threadId;
  }

  async close(): Promise<void> {
    for (let slot = 0; slot < SLOTS; slot++) await this.disconnect(slot).catch(() => undefined);
    await this.http?.close();
    await this.gateway.close();
  }
}

/** Waits, within a hang guard, until `condition` holds: a closed session is freed asynchronously. */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// ---------------------------------------------------------------------------------------------
// Checks after every command

async function checkWorld(
  model: Model,
  world: World,
  options: { removed?: { slot: Slot; ids: readonly string[] }; only?: Slot } = {},
): Promise<void> {
  const { removed } = options;
  for (let slot = 0; slot < SLOTS; slot++) {
    // A command that cannot change what others see (a call, a step) checks its own session only.
    if (options.only !== undefined && slot !== options.only) continue;
    const open = world.sessions[slot];
    if (!open) continue;
    const names = await listToolNames(open.client);
    expect({ slot, names }).toEqual({ slot, names: model.listed(slot) });
    // Loaded tools only append, except for what a result of this command reported as removed.
    const loaded = model.entries(slot).map((entry) => entry.id);
    const previous = world.observed.get(slot);
    if (previous) {
      const gone = removed?.slot === slot ? removed.ids : [];
      const kept = previous.filter((id) => !gone.includes(id));
      expect(loaded.slice(0, kept.length)).toEqual(kept);
    }
    world.observed.set(slot, loaded);
  }
  const open = world.sessions.filter((session) => session !== undefined).length;
  expect(world.gateway.sessionCount).toBe(open);
  if (world.http) expect(world.http.sessionCount).toBe(open);
  // Nothing ran upstream that the model did not expect, with exactly the client's arguments.
  expect(world.upstream.executions).toEqual(model.executions);
}

// ---------------------------------------------------------------------------------------------
// Commands

type GatewayCommand = fc.AsyncCommand<Model, World>;

interface LoadOutcome {
  output: Record<string, unknown>;
  change: Change;
}

/** What `load_tool` answers (without its message), applied to the model's session. */
function expectedLoad(model: Model, slot: Slot, input: LoadInput): LoadOutcome {
  const none: Change = { loaded: [], alreadyLoaded: [], evicted: [], unloaded: [] };
  const names = [
    ...new Set([...(input.toolNames ?? []), ...(input.toolName ? [input.toolName] : [])]),
  ];
  if (names.length === 0) return { output: { success: false }, change: none };
  const single = input.toolNames === undefined;
  const notFound: string[] = [];
  const pinnedHits: string[] = [];
  const candidates: string[] = [];
  for (const name of names) {
    if (!EXPOSED.has(name)) notFound.push(name);
    else if (model.pinned.includes(name)) pinnedHits.push(name);
    else candidates.push(name);
  }
  const change =
    candidates.length > 0
      ? modelLoad(model.entries(slot), candidates, model.clock, model.config.maxLoadedTools)
      : none;
  const alreadyLoaded = [...pinnedHits, ...change.alreadyLoaded];
  const evicted = change.evicted.length > 0 ? { evicted: change.evicted } : {};
  if (single) {
    const [name] = names as [string];
    if (notFound.length > 0) return { output: { success: false, toolName: name }, change };
    const loaded = alreadyLoaded[0] ?? change.loaded[0];
    if (loaded === undefined)
      return { output: { success: false, toolName: name, evicted: change.evicted }, change };
    return { output: { success: true, toolName: loaded, loaded: [loaded], ...evicted }, change };
  }
  return {
    output: {
      success: notFound.length === 0,
      loadedCount: change.loaded.length,
      ...(change.loaded.length > 0 && { loaded: change.loaded }),
      ...(alreadyLoaded.length > 0 && { alreadyLoaded }),
      ...(notFound.length > 0 && { notFound }),
      ...evicted,
    },
    change,
  };
}

/** The fields of a meta-tool answer that the model predicts: without the message and schemas. */
function fieldsOf(output: unknown): Record<string, unknown> {
  const { message: _message, tools: _tools, ...fields } = output as Record<string, unknown>;
  return fields;
}

/** Under proxy, `load_tool` returns the definitions of the tools it made callable. */
function checkProxySchemas(model: Model, output: Record<string, unknown>): void {
  if (model.config.expose !== 'proxy') {
    expect(output.tools).toBeUndefined();
    return;
  }
  const names = new Set<string>();
  if (output.success === true && typeof output.toolName === 'string') names.add(output.toolName);
  for (const key of ['loaded', 'alreadyLoaded'])
    for (const name of (output[key] as string[] | undefined) ?? []) names.add(name);
  // Absent when the call made nothing callable.
  const tools = (output.tools ?? []) as { name: string; description?: string }[];
  expect(tools.map((tool) => tool.name)).toEqual([...names]);
  for (const tool of tools)
    expect(tool.description).toBe(
      `Run the ${EXPOSED.get(tool.name)} operation on the test upstream`,
    );
}

interface LoadInput {
  toolName?: string;
  toolNames?: string[];
}

class LoadCommand implements GatewayCommand {
  constructor(
    readonly slot: Slot,
    readonly input: LoadInput,
  ) {}
  check = () => true;
  async run(model: Model, world: World) {
    const { client } = await world.session(this.slot);
    const result = await callTool(client, 'load_tool', { ...this.input });
    if (model.config.autoLoad) {
      // Not offered under autoLoad: a call to it is a call of a tool that is not loaded.
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/not loaded|was not found/);
      await checkWorld(model, world, { only: this.slot });
      return;
    }
    const expected = expectedLoad(model, this.slot, this.input);
    expect(fieldsOf(result.structuredContent)).toEqual(expected.output);
    expect(result.isError ?? false).toBe(expected.output.success === false);
    checkProxySchemas(model, result.structuredContent as Record<string, unknown>);
    await checkWorld(model, world, { removed: { slot: this.slot, ids: expected.change.evicted } });
  }
  toString = () => `load(${this.slot}, ${JSON.stringify(this.input)})`;
}

/** Two `load_tool` calls of one session at once: neither change is lost, one order or the other. */
class ParallelLoadCommand implements GatewayCommand {
  constructor(
    readonly slot: Slot,
    readonly names: readonly [string, string],
  ) {}
  check = (model: Readonly<Model>) => !model.config.autoLoad;
  async run(model: Model, world: World) {
    const { client } = await world.session(this.slot);
    const results = await Promise.all(
      this.names.map((toolName) => callTool(client, 'load_tool', { toolName })),
    );
    const before = model.entries(this.slot).map((entry) => ({ ...entry }));
    const outputs = results.map((result) => fieldsOf(result.structuredContent));
    for (const order of [
      [0, 1],
      [1, 0],
    ] as const) {
      model.sessions[this.slot] = before.map((entry) => ({ ...entry }));
      const expected: LoadOutcome[] = [];
      for (const position of order)
        expected[position] = expectedLoad(model, this.slot, { toolName: this.names[position] });
      if (expected.every((outcome, at) => isDeepEqual(outcome.output, outputs[at]))) {
        const evicted = expected.flatMap((outcome) => outcome.change.evicted);
        await checkWorld(model, world, { removed: { slot: this.slot, ids: evicted } });
        return;
      }
    }
    expect(outputs).toEqual('the outcome of the two loads in one order or the other');
  }
  toString = () => `parallelLoad(${this.slot}, ${JSON.stringify(this.names)})`;
}

class UnloadCommand implements GatewayCommand {
  constructor(
    readonly slot: Slot,
    readonly names: string[],
  ) {}
  check = (model: Readonly<Model>) => model.config.unloadTool;
  async run(model: Model, world: World) {
    const { client } = await world.session(this.slot);
    const result = await callTool(client, 'unload_tool', { toolNames: this.names });
    const entries = model.entries(this.slot);
    const wanted = [...new Set(this.names)];
    const unloaded = entries.filter((entry) => wanted.includes(entry.id)).map((entry) => entry.id);
    model.sessions[this.slot] = entries.filter((entry) => !unloaded.includes(entry.id));
    const notLoaded = wanted.filter((name) => !unloaded.includes(name));
    expect(fieldsOf(result.structuredContent)).toEqual({
      success: unloaded.length > 0,
      unloaded,
      ...(notLoaded.length > 0 && { notLoaded }),
    });
    await checkWorld(model, world, { removed: { slot: this.slot, ids: unloaded } });
  }
  toString = () => `unload(${this.slot}, ${JSON.stringify(this.names)})`;
}

class SearchCommand implements GatewayCommand {
  constructor(
    readonly slot: Slot,
    readonly query: string,
    readonly limit: number | undefined,
  ) {}
  check = () => true;
  async run(model: Model, world: World) {
    const { client } = await world.session(this.slot);
    const input =
      this.limit === undefined ? { query: this.query } : { query: this.query, limit: this.limit };
    const result = await callTool(client, 'search_tools', input);
    expect(result.isError ?? false).toBe(false);
    const output = result.structuredContent as {
      results: { name: string; score: number }[];
      activation?: { loaded: string[] };
      evicted?: string[];
    };
    const names = output.results.map((hit) => hit.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeLessThanOrEqual(this.limit ?? model.config.topK);
    for (const name of names) expect(EXPOSED.has(name)).toBe(true);
    const scores = output.results.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    let evicted: string[] = [];
    if (!model.config.autoLoad || names.length === 0) {
      expect(output.activation).toBeUndefined();
    } else {
      const candidates = names.filter((name) => !model.pinned.includes(name));
      const change =
        candidates.length > 0
          ? modelLoad(
              model.entries(this.slot),
              candidates,
              model.clock,
              model.config.maxLoadedTools,
            )
          : { loaded: [], alreadyLoaded: [], evicted: [] };
      evicted = change.evicted;
      expect(output.activation?.loaded).toEqual(names.filter((name) => !evicted.includes(name)));
      expect(output.evicted ?? []).toEqual(evicted);
    }
    await checkWorld(model, world, { removed: { slot: this.slot, ids: evicted } });
  }
  toString = () => `search(${this.slot}, ${JSON.stringify(this.query)}, limit ${this.limit})`;
}

type Via = 'direct' | 'call_tool' | 'bad call_tool';

/** The client calls a tool: the upstream runs it only when it is active in that session. */
class CallCommand implements GatewayCommand {
  constructor(
    readonly slot: Slot,
    readonly name: string,
    readonly via: Via,
  ) {}
  check = () => true;
  async run(model: Model, world: World) {
    const { client } = await world.session(this.slot);
    const sent = { slot: this.slot, call: model.calls++ };
    const proxy = model.config.expose === 'proxy';
    let evicted: string[] = [];
    const call = async () => {
      if (this.via === 'direct') return callTool(client, this.name, sent);
      if (this.via === 'call_tool')
        return callTool(client, 'call_tool', { name: this.name, arguments: sent });
      return callTool(client, 'call_tool', { name: 42, arguments: 'not an object' });
    };
    const outcome = await call().then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error }),
    );

    if (this.via !== 'direct' && !proxy) {
      // call_tool exists only under proxy: otherwise it is an unknown, unloaded tool.
      expect(outcome.result?.isError).toBe(true);
      expect(textOf(outcome.result!)).toMatch(/not loaded/);
    } else if (this.via === 'bad call_tool') {
      expect(outcome.result?.isError).toBe(true);
      expect(textOf(outcome.result!)).toMatch(
        /^call_tool: "name" must be the exact name of a catalog tool/,
      );
    } else if (!model.isActive(this.slot, this.name) && !(proxy && EXPOSED.has(this.name))) {
      expect(outcome.result?.isError).toBe(true);
      expect(textOf(outcome.result!)).toMatch(proxy ? /was not found/ : /not loaded/);
    } else {
      // Under proxy a known tool that is not loaded is loaded by its call, directly or through
      // call_tool (one rule for both paths), within the budget.
      if (!model.isActive(this.slot, this.name)) {
        const change = modelLoad(
          model.entries(this.slot),
          [this.name],
          model.clock,
          model.config.maxLoadedTools,
        );
        evicted = change.evicted;
      }
      // Active: a call marks a loaded tool as used for the budget, before it is forwarded.
      const entry = model.entries(this.slot).find((candidate) => candidate.id === this.name);
      if (entry && model.config.maxLoadedTools !== undefined) entry.usedAt = model.clock;
      if (model.mode === 'down') {
        expect(outcome.result?.isError).toBe(true);
        expect(textOf(outcome.result!)).toMatch(/unavailable/);
      } else {
        const tool = EXPOSED.get(this.name)!;
        model.executions.push({ tool, arguments: sent });
        const text = JSON.stringify({ ran: tool, arguments: sent });
        if (model.mode === 'protocol-error') {
          expect(outcome.error).toBeInstanceOf(ProtocolError);
        } else {
          expect(outcome.result?.isError ?? false).toBe(model.mode === 'error-result');
          expect(textOf(outcome.result!)).toBe(text);
        }
      }
    }
    await checkWorld(model, world, { only: this.slot, removed: { slot: this.slot, ids: evicted } });
  }
  toString = () => `call(${this.slot}, ${JSON.stringify(this.name)}, ${this.via})`;
}

class DisconnectCommand implements GatewayCommand {
  constructor(readonly slot: Slot) {}
  check = () => true;
  async run(model: Model, world: World) {
    const threadId = await world.disconnect(this.slot);
    model.sessions[this.slot] = undefined;
    if (threadId !== undefined) {
      const open = world.sessions.filter((session) => session !== undefined).length;
      const store = world.gateway.engine.store!;
      await eventually(
        async () =>
          world.gateway.sessionCount === open && (await store.get(threadId)) === undefined,
      );
      // The session's state is freed: its server, its HTTP transport and its stored loads.
      expect(world.gateway.sessionCount).toBe(open);
      expect(await store.get(threadId)).toBeUndefined();
    }
    await checkWorld(model, world);
  }
  toString = () => `disconnect(${this.slot})`;
}

class ModeCommand implements GatewayCommand {
  constructor(readonly mode: CountingUpstream['mode']) {}
  check = () => true;
  async run(model: Model, world: World) {
    model.mode = this.mode;
    world.upstream.mode = this.mode;
  }
  toString = () => `upstream ${this.mode}`;
}

class StepCommand implements GatewayCommand {
  constructor(readonly slot: Slot) {}
  check = () => true;
  async run(model: Model, world: World) {
    await world.session(this.slot);
    model.entries(this.slot);
    await checkWorld(model, world, { only: this.slot });
  }
  toString = () => `step(${this.slot})`;
}

function isDeepEqual(left: unknown, right: unknown): boolean {
  try {
    expect(left).toEqual(right);
    return true;
  } catch {
    return false;
  }
}

const slotArbitrary = fc.integer({ min: 0, max: SLOTS - 1 });
const nameArbitrary = fc.constantFrom(...NAMES);
const callNameArbitrary = fc.constantFrom(...NAMES.filter((name) => !META_NAMES.includes(name)));

/** Every command advances the clock by 1 ms, so that loads and calls have distinct times. */
function timed(command: GatewayCommand): GatewayCommand {
  return {
    check: (model) => command.check(model),
    async run(model, world) {
      model.clock += 1;
      vi.setSystemTime(model.clock);
      await command.run(model, world);
    },
    toString: () => command.toString(),
  };
}

const commandArbitraries: fc.Arbitrary<GatewayCommand>[] = [
  slotArbitrary.map((slot) => new StepCommand(slot)),
  fc
    .tuple(
      slotArbitrary,
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...QUERIES) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      ),
      fc.constantFrom(undefined, 1, 3),
    )
    .map(([slot, query, limit]) => new SearchCommand(slot, query, limit)),
  fc
    .tuple(
      slotArbitrary,
      fc.oneof(
        { weight: 3, arbitrary: nameArbitrary.map((toolName) => ({ toolName })) },
        {
          weight: 2,
          arbitrary: fc
            .array(nameArbitrary, { minLength: 1, maxLength: 3 })
            .map((toolNames) => ({ toolNames })),
        },
      ),
    )
    .map(([slot, input]) => new LoadCommand(slot, input)),
  fc
    .tuple(slotArbitrary, nameArbitrary, nameArbitrary)
    .map(([slot, first, second]) => new ParallelLoadCommand(slot, [first, second])),
  fc
    .tuple(slotArbitrary, fc.array(nameArbitrary, { minLength: 1, maxLength: 2 }))
    .map(([slot, names]) => new UnloadCommand(slot, names)),
  fc
    .tuple(
      slotArbitrary,
      callNameArbitrary,
      fc.constantFrom<Via>('direct', 'direct', 'call_tool', 'bad call_tool'),
    )
    .map(([slot, name, via]) => new CallCommand(slot, name, via)),
  fc
    .tuple(slotArbitrary, callNameArbitrary)
    .map(([slot, name]) => new CallCommand(slot, name, 'direct')),
  slotArbitrary.map((slot) => new DisconnectCommand(slot)),
  fc
    .constantFrom<CountingUpstream['mode']>('ok', 'ok', 'error-result', 'protocol-error', 'down')
    .map((mode) => new ModeCommand(mode)),
].map((arbitrary) => arbitrary.map(timed));

/** A hang guard for the whole property, not a speed gate: the suite normally takes seconds. */
const HANG_GUARD = 300_000;

describe('ToolSearchGateway under random use', () => {
  let upstream: CountingUpstream;

  beforeAll(async () => {
    upstream = await startCountingUpstream([...EXPOSED.values(), DENIED_TOOL]);
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await upstream.close();
  });

  it(
    'agrees with the reference model after every command, over both transports',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          configArbitrary,
          fc.commands(commandArbitraries, commandsConstraints(20)),
          async (config, commands) => {
            const model = new Model(config);
            vi.setSystemTime(model.clock);
            upstream.reset();
            const world = new World(config, upstream);
            try {
              await world.start();
              await fc.asyncModelRun(() => ({ model, real: world }), commands);
            } finally {
              await world.close();
            }
          },
        ),
        propertyRuns('mcp gateway', 300),
      );
    },
    HANG_GUARD,
  );
});
