/**
 * Model-based property tests of the Redis store under the engine, against a real redis-server:
 * two engines (two "processes", one on ioredis and one on node-redis) share one Redis and change
 * threads with odd ids (`__proto__`, braces, lone surrogates) through random loads, unloads,
 * calls, parallel loads from both engines at once, restarts, store failures, clears, and changes
 * that time out (held back past a short store timeout before their clock call, before the change
 * goes out, or on their answer's way back). After every command: every operation the store
 * applied gave the result the core's reference semantics (`applyLoadedToolsOperation`) gives on a
 * model of the thread; a change that timed out left the thread unchanged, unless Redis had run it
 * in time and `onLateChange` reported it; every thread's stored state equals the model's (no
 * thread sees another's loads); each engine offers exactly the pins and the stored tools, and
 * `isActive` agrees.
 *
 * One piece: the reference model of a thread, the commands that drive both engines and the model
 * alike, and the run that checks them after every command share one model's state; split, each
 * part would have to re-declare it.
 *
 * A failure prints the variables that replay it (seed, path and the commands' replay path).
 */
import fc from 'fast-check';
import {
  applyLoadedToolsOperation,
  createToolSearchEngine,
  type LoadedToolEntry,
  type LoadedToolsChange,
  type LoadedToolsOperation,
  type LoadedToolsStore,
  type ToolSearchEngine,
  toToolRecord,
} from 'tool-search-core';
import { commandsConstraints, propertyRuns } from 'tool-search-testing/property-runs';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createRedisStore, type RedisStore } from './create-redis-store';
import { CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';
import { type HookedClient, hookedClient } from './test-utils/hooked-client';

const port = inject('redisPort');

/** Tool ids, odd ones included; `x\uFFFD` is what a lone surrogate becomes in UTF-8. */
const TOOL_IDS = [
  'get_weather',
  'send_email',
  'create_issue',
  '__proto__',
  'constructor',
  'quote"back\\slash',
  'x\uD800',
  'x\uDC00',
  'x\uFFFD',
];
const NAMES = [...TOOL_IDS, 'hasOwnProperty', 'nope'];
const THREADS = ['t1', '__proto__', 'a}b{', 't\uD800', 't\uDC00'];

const isWellFormed = (text: string) =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

interface FakeTool {
  description: string;
}
const CATALOG = toToolRecord<FakeTool>(
  TOOL_IDS.map((id, index) => [id, { description: `Tool number ${index}` }]),
);

interface Config {
  maxLoadedTools: number | undefined;
  pinned: string[];
}

/** What an engine asked the store to apply, and what the store answered. */
interface Applied {
  thread: string;
  operation: LoadedToolsOperation;
  change: LoadedToolsChange;
}

/** Where a timed-out change is held back: its clock call, the change itself, or its answer. */
type Stall = 'clock' | 'change' | 'answer';
/** The script's operations that change a thread. */
const CHANGES = new Set(['load', 'unload', 'touch', 'set', 'delete']);

/**
 * One engine process: its store (behind a switch that fails it), a second engine on a store that
 * gives up after `IMPATIENT_TIMEOUT` (on a client that holds calls back when told), and what
 * either applied (a late change as `onLateChange` reports it).
 */
class Process {
  readonly config: Config;
  readonly redis: RedisStore;
  readonly hooked: HookedClient;
  readonly impatientRedis: RedisStore;
  readonly applied: Applied[] = [];
  failing = false;
  stall: Stall | undefined;
  engine: ToolSearchEngine<FakeTool>;
  impatient: ToolSearchEngine<FakeTool>;

  constructor(config: Config, connection: TestClient, store: { keyPrefix: string; ttl: number }) {
    this.config = config;
    this.redis = createRedisStore({
      client: connection.client,
      ...store,
      timeout: PATIENT_TIMEOUT,
    });
    const holdBack = (where: Stall, args: readonly string[]) =>
      this.stall === where && (where === 'clock' ? args[0] === 'clock' : CHANGES.has(args[0]!))
        ? sleep(HOLD_BACK)
        : undefined;
    this.hooked = hookedClient(connection.client, {
      beforeSend: (args) => holdBack('clock', args) ?? holdBack('change', args),
      beforeAnswer: (args) => holdBack('answer', args),
    });
    this.impatientRedis = createRedisStore({
      client: this.hooked.client,
      ...store,
      timeout: IMPATIENT_TIMEOUT,
      onLateChange: ({ threadId, operation, change }) => {
        if (operation.type !== 'set' && operation.type !== 'delete' && change)
          this.applied.push({ thread: threadId, operation, change });
      },
    });
    this.engine = this.create();
    this.impatient = this.createImpatient();
  }

  create(): ToolSearchEngine<FakeTool> {
    const { redis } = this;
    const guard = <T>(call: () => Promise<T>): Promise<T> =>
      this.failing ? Promise.reject(new Error('store unavailable')) : call();
    const storage: LoadedToolsStore = {
      get: (thread) => guard(() => redis.get(thread)),
      set: (thread, state) => guard(() => redis.set(thread, state)),
      delete: (thread) => guard(() => redis.delete(thread)),
      update: (thread, operation) =>
        guard(async () => {
          const change = await redis.update(thread, operation);
          this.applied.push({ thread, operation, change });
          return change;
        }),
    };
    return this.engineOn(storage);
  }

  createImpatient(): ToolSearchEngine<FakeTool> {
    const { impatientRedis } = this;
    return this.engineOn({
      get: (thread) => impatientRedis.get(thread),
      set: (thread, state) => impatientRedis.set(thread, state),
      delete: (thread) => impatientRedis.delete(thread),
      update: async (thread, operation) => {
        const change = await impatientRedis.update(thread, operation);
        this.applied.push({ thread, operation, change });
        return change;
      },
    });
  }

  engineOn(storage: LoadedToolsStore): ToolSearchEngine<FakeTool> {
    return createToolSearchEngine<FakeTool>({
      tools: CATALOG,
      describe: (tool, key) => ({ id: key, description: tool.description }),
      storage,
      unloadTool: true,
      alwaysLoaded: this.config.pinned,
      ...(this.config.maxLoadedTools !== undefined && {
        maxLoadedTools: this.config.maxLoadedTools,
      }),
    });
  }

  run(thread: string, name: 'load_tool' | 'unload_tool', input: unknown): Promise<unknown> {
    const session = this.engine.createSession({ threadId: thread });
    return session.metaTools.find((tool) => tool.name === name)!.execute(input);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Each thread's loaded tools, as the core's reference semantics leave them. */
class Model {
  readonly config: Config;
  readonly threads = new Map<string, LoadedToolEntry[]>();
  clock = 1_700_000_000_000;

  constructor(config: Config) {
    this.config = config;
  }

  entries(thread: string): LoadedToolEntry[] {
    let entries = this.threads.get(thread);
    if (!entries) {
      entries = [];
      this.threads.set(thread, entries);
    }
    return entries;
  }

  /** Replays what a process applied, checking each answer against the reference. */
  replay(process: Process): void {
    for (const { thread, operation, change } of process.applied.splice(0)) {
      expect(change, `${operation.type} on ${JSON.stringify(thread)}`).toEqual(
        applyLoadedToolsOperation(this.entries(thread), operation),
      );
    }
  }

  /** The ids a session must offer: the pins, then the stored tools in load order. */
  active(thread: string): string[] {
    return [
      ...this.config.pinned,
      ...this.entries(thread)
        .map((entry) => entry.id)
        .filter((id) => !this.config.pinned.includes(id)),
    ];
  }
}

interface Real {
  processes: [Process, Process];
}

/** Every thread's stored state equals the model's; each process offers what the model says. */
async function checkAll(model: Model, real: Real): Promise<void> {
  for (const thread of THREADS) {
    if (!isWellFormed(thread)) {
      // Redis would store a lone surrogate as U+FFFD and merge two threads: the store refuses.
      await expect(real.processes[0].redis.get(thread)).rejects.toThrow(/well-formed/);
      expect(model.entries(thread)).toEqual([]);
    }
    const stored = isWellFormed(thread)
      ? ((await real.processes[0].redis.get(thread))?.tools ?? [])
      : [];
    expect({ thread, stored }).toEqual({ thread, stored: model.entries(thread) });
    for (const process of real.processes) {
      if (process.failing) continue;
      const session = process.engine.createSession({ threadId: thread });
      expect((await session.activeTools()).map((tool) => tool.id)).toEqual(model.active(thread));
    }
  }
}

type RedisCommand = fc.AsyncCommand<Model, Real>;

class LoadCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly thread: string,
    readonly names: string[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    const output = (await process.run(this.thread, 'load_tool', { toolNames: this.names })) as {
      success: boolean;
      loaded?: string[];
    };
    if (process.failing && (output.loaded ?? []).length > 0)
      expect.unreachable('loaded while down');
    model.replay(process);
    await checkAll(model, real);
  }
  toString = () =>
    `load(p${this.process}, ${JSON.stringify(this.thread)}, ${JSON.stringify(this.names)})`;
}

class UnloadCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly thread: string,
    readonly names: string[],
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    await process.run(this.thread, 'unload_tool', { toolNames: this.names });
    model.replay(process);
    await checkAll(model, real);
  }
  toString = () =>
    `unload(p${this.process}, ${JSON.stringify(this.thread)}, ${JSON.stringify(this.names)})`;
}

/** The model calls a tool: it may run only when active, whatever its name. */
class CallCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly thread: string,
    readonly name: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    const session = process.engine.createSession({ threadId: this.thread });
    const runnable = await session.isActive(this.name);
    const active = process.failing ? model.config.pinned : model.active(this.thread);
    expect(runnable).toBe(active.includes(this.name));
    model.replay(process);
    await checkAll(model, real);
  }
  toString = () =>
    `call(p${this.process}, ${JSON.stringify(this.thread)}, ${JSON.stringify(this.name)})`;
}

/** Both processes load into one thread at the same moment: neither load may be lost. */
class ParallelLoadCommand implements RedisCommand {
  constructor(
    readonly thread: string,
    readonly names: [string, string],
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await Promise.all(
      real.processes.map((process, index) =>
        process.run(this.thread, 'load_tool', { toolName: this.names[index] }),
      ),
    );
    const applied = real.processes.flatMap((process) => process.applied.splice(0));
    const stored = isWellFormed(this.thread)
      ? ((await real.processes[0].redis.get(this.thread))?.tools ?? [])
      : [];
    const before = model.entries(this.thread).map((entry) => ({ ...entry }));
    // Redis ran the two scripts one after the other, in one order or the other.
    const orders = applied.length === 2 ? [applied, [...applied].reverse()] : [applied];
    const matching = orders.find((order) => {
      const entries = before.map((entry) => ({ ...entry }));
      const answers = order.map((step) => applyLoadedToolsOperation(entries, step.operation));
      return (
        JSON.stringify(answers) === JSON.stringify(order.map((step) => step.change)) &&
        JSON.stringify(entries) === JSON.stringify(stored)
      );
    });
    expect(matching, 'the two loads applied one after the other').toBeDefined();
    for (const step of matching!)
      applyLoadedToolsOperation(model.entries(this.thread), step.operation);
    await checkAll(model, real);
  }
  toString = () => `parallelLoad(${JSON.stringify(this.thread)}, ${JSON.stringify(this.names)})`;
}

/**
 * A load, unload or call (a touch) through the impatient store, held back at one point past its
 * timeout: the engine answers that it failed, and the thread is left as it was, unless Redis ran
 * the change in time (only its answer held back), in which case `onLateChange` reported it and
 * the model applies what it reported.
 */
class TimedOutCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly thread: string,
    readonly action: 'load' | 'unload' | 'call',
    readonly names: string[],
    readonly stall: Stall,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    const session = process.impatient.createSession({ threadId: this.thread });
    const run = (name: string, input: unknown) =>
      session.metaTools.find((tool) => tool.name === name)!.execute(input) as Promise<{
        loaded?: string[];
        unloaded?: string[];
      }>;
    process.stall = this.stall;
    process.hooked.answered.length = 0;
    try {
      if (this.action === 'load') {
        const output = await run('load_tool', { toolNames: this.names });
        // Only a pin counts as loaded without the store.
        for (const id of output.loaded ?? []) expect(model.config.pinned).toContain(id);
      } else if (this.action === 'unload') {
        const output = await run('unload_tool', { toolNames: this.names });
        expect(output.unloaded ?? []).toEqual([]);
      } else if (await session.isActive(this.names[0]!)) {
        // Its read may time out too (it then finds nothing), but it never finds what is not there.
        expect(model.active(this.thread)).toContain(this.names[0]);
      }
      await process.hooked.idle();
      // The store reports a late answer once the client hands it over: a turn of the event loop.
      await sleep(0);
    } finally {
      process.stall = undefined;
    }
    const changes = process.hooked.answered.filter((call) => CHANGES.has(call.args[0]!));
    const applied = changes.filter((call) => call.answer !== 'late');
    // Held back before it went out, a change reached Redis past its deadline, or never went out.
    if (this.stall !== 'answer') expect(applied).toEqual([]);
    // Every change Redis ran was answered too late for the engine, and reported once.
    expect(process.applied.length).toBe(applied.length);
    model.replay(process);
    await checkAll(model, real);
  }
  toString = () =>
    `timedOut(p${this.process}, ${JSON.stringify(this.thread)}, ${this.action} ${JSON.stringify(this.names)}, held at ${this.stall})`;
}

class RestartCommand implements RedisCommand {
  constructor(readonly process: 0 | 1) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    process.engine = process.create();
    process.impatient = process.createImpatient();
    await checkAll(model, real);
  }
  toString = () => `restart(p${this.process})`;
}

class FailCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly failing: boolean,
  ) {}
  check = () => true;
  async run(_model: Model, real: Real) {
    real.processes[this.process].failing = this.failing;
  }
  toString = () => `p${this.process} store ${this.failing ? 'fails' : 'recovers'}`;
}

class ClearCommand implements RedisCommand {
  constructor(
    readonly process: 0 | 1,
    readonly thread: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    const cleared = process.engine.clearState(this.thread);
    if (process.failing || !isWellFormed(this.thread)) await expect(cleared).rejects.toThrow();
    else {
      await cleared;
      model.threads.set(this.thread, []);
    }
    await checkAll(model, real);
  }
  toString = () => `clearState(p${this.process}, ${JSON.stringify(this.thread)})`;
}

class AdvanceCommand implements RedisCommand {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model) {
    model.clock += this.ms;
    vi.setSystemTime(model.clock);
  }
  toString = () => `advance(${this.ms} ms)`;
}

const processArbitrary = fc.constantFrom<0 | 1>(0, 1);
const threadArbitrary = fc.constantFrom(...THREADS);
const nameArbitrary = fc.constantFrom(...NAMES);
const commandArbitraries: fc.Arbitrary<RedisCommand>[] = [
  fc
    .tuple(
      processArbitrary,
      threadArbitrary,
      fc.array(nameArbitrary, { minLength: 1, maxLength: 3 }),
    )
    .map(([p, t, n]) => new LoadCommand(p, t, n)),
  fc
    .tuple(
      processArbitrary,
      threadArbitrary,
      fc.array(nameArbitrary, { minLength: 1, maxLength: 2 }),
    )
    .map(([p, t, n]) => new UnloadCommand(p, t, n)),
  fc
    .tuple(processArbitrary, threadArbitrary, nameArbitrary)
    .map(([p, t, n]) => new CallCommand(p, t, n)),
  fc
    .tuple(threadArbitrary, nameArbitrary, nameArbitrary)
    .map(([t, a, b]) => new ParallelLoadCommand(t, [a, b])),
  processArbitrary.map((p) => new RestartCommand(p)),
  fc.tuple(processArbitrary, fc.boolean()).map(([p, f]) => new FailCommand(p, f)),
  fc.tuple(processArbitrary, threadArbitrary).map(([p, t]) => new ClearCommand(p, t)),
  fc.constantFrom(0, 1, 5).map((ms) => new AdvanceCommand(ms)),
  fc
    .tuple(
      processArbitrary,
      threadArbitrary,
      fc.constantFrom<TimedOutCommand['action'][]>('load', 'unload', 'call'),
      fc.array(nameArbitrary, { minLength: 1, maxLength: 2 }),
      fc.constantFrom<Stall[]>('clock', 'change', 'answer'),
    )
    .map(([p, t, a, n, s]) => new TimedOutCommand(p, t, a, n, s)),
];

/** A hang guard for the whole property, not a speed gate. */
const HANG_GUARD = 300_000;
/** Redis expires a run's keys after a minute of real time, long after the run (Date is faked). */
const KEY_TTL = 60_000;
/** Redis answers within a millisecond; a busy CI machine must never turn that into a failure. */
const PATIENT_TIMEOUT = 10_000;
/** The store that times out: short, so the suite stays fast; any call slower than it is fine. */
const IMPATIENT_TIMEOUT = 20;
/** How long a timed-out call is held back: twice the timeout, so it always times out. */
const HOLD_BACK = 2 * IMPATIENT_TIMEOUT;

describe.skipIf(port === 0)('createRedisStore under two engines and random use', () => {
  let connections: TestClient[] = [];

  beforeAll(async () => {
    connections = await Promise.all(CLIENT_KINDS.map((kind) => kind.connect(port)));
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await Promise.all(connections.map((connection) => connection.close()));
  });

  it(
    'applies every change as the reference does and keeps every thread to itself',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            maxLoadedTools: fc.constantFrom(undefined, 1, 2),
            pinned: fc.constantFrom<string[][]>([], ['create_issue']),
          }),
          fc.commands(commandArbitraries, commandsConstraints(15)),
          async (config, commands) => {
            const model = new Model(config);
            vi.setSystemTime(model.clock);
            // One key prefix per run: the runs never see each other's threads.
            const keyPrefix = uniquePrefix('property');
            const [first, second] = connections.map(
              (connection) => new Process(config, connection, { keyPrefix, ttl: KEY_TTL }),
            );
            await fc.asyncModelRun(
              () => ({ model, real: { processes: [first!, second!] as [Process, Process] } }),
              commands,
            );
          },
        ),
        propertyRuns('redis store', 600),
      );
    },
    HANG_GUARD,
  );
});
