/**
 * Model-based property tests of the Redis store under the engine, against a real redis-server:
 * two engines (two "processes", one on ioredis and one on node-redis) share one Redis and change
 * threads with odd ids (`__proto__`, braces, lone surrogates) through random loads, unloads,
 * calls, parallel loads from both engines at once, restarts, store failures and clears. After
 * every command: every operation the store applied gave the result the core's reference
 * semantics (`applyLoadedToolsOperation`) gives on a model of the thread; every thread's stored
 * state equals the model's (no thread sees another's loads); each engine offers exactly the pins
 * and the stored tools, and `isActive` agrees.
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

/** One engine process: its store (behind a switch that fails it) and what it applied. */
class Process {
  readonly config: Config;
  readonly redis: RedisStore;
  readonly applied: Applied[] = [];
  failing = false;
  engine: ToolSearchEngine<FakeTool>;

  constructor(config: Config, redis: RedisStore) {
    this.config = config;
    this.redis = redis;
    this.engine = this.create();
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

class RestartCommand implements RedisCommand {
  constructor(readonly process: 0 | 1) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const process = real.processes[this.process];
    process.engine = process.create();
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
];

/** A hang guard for the whole property, not a speed gate. */
const HANG_GUARD = 300_000;
/** Redis expires a run's keys after a minute of real time, long after the run (Date is faked). */
const KEY_TTL = 60_000;
/** Redis answers within a millisecond; a busy CI machine must never turn that into a failure. */
const PATIENT_TIMEOUT = 10_000;

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
              (connection) =>
                new Process(
                  config,
                  createRedisStore({
                    client: connection.client,
                    keyPrefix,
                    timeout: PATIENT_TIMEOUT,
                    ttl: KEY_TTL,
                  }),
                ),
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
