/**
 * Hostile input, table-driven, for the Redis store's inputs (what an application or a shared
 * Redis could hand it), against a real redis-server: odd and huge thread ids and tool ids, 100,000
 * ids, bad times and budgets, unknown operations, malformed states, and a key holding something
 * that is not the store's. Each row states its outcome (a clear answer or a clear error) and a
 * hang guard (the test's timeout, never a speed gate), and checks that a neighbouring thread is
 * unchanged afterwards.
 *
 * A later entry point (the gateway's JSON-RPC, config files, CLI arguments) adds rows the same
 * way: a `run` that sends the value through it, and the same neighbour check.
 */
import type { Redis } from 'ioredis';
import type { LoadedToolsOperation } from 'tool-search-core';
import {
  LONE_SURROGATES,
  MANY_NAMES,
  ONE_MB,
  PROTOTYPE_NAMES,
} from 'tool-search-testing/hostile-inputs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedisStore, type RedisStore } from './create-redis-store';
import { adminClient, CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';

const port = inject('redisPort');
const PATIENT_TIMEOUT = 10_000;
const QUICK = 15_000;
const SLOW = 60_000;

interface Row {
  input: string;
  run: (store: RedisStore, admin: Redis) => Promise<unknown>;
  outcome: { answer: (output: never) => void } | { error: RegExp };
  within?: number;
}

const load = (ids: readonly string[], extra: Partial<LoadedToolsOperation> = {}) =>
  ({ type: 'load', ids, at: 1, ...extra }) as LoadedToolsOperation;

const ROWS: Row[] = [
  ...[...PROTOTYPE_NAMES, '{', '}', '{}', 'a}:tools', ONE_MB].map(
    (threadId): Row => ({
      input: `thread id ${JSON.stringify(threadId.slice(0, 20))}${threadId.length > 20 ? '…' : ''}`,
      run: async (store) => {
        await store.update(threadId, load(['a']));
        return store.get(threadId);
      },
      outcome: {
        answer: (state: { tools: { id: string }[] }) =>
          expect(state.tools.map((t) => t.id)).toEqual(['a']),
      },
      within: SLOW,
    }),
  ),
  {
    input: 'an empty thread id',
    run: (store) => store.get(''),
    outcome: { error: /non-empty string/ },
  },
  {
    input: 'a thread id with lone surrogates',
    run: (store) => store.update(LONE_SURROGATES, load(['a'])),
    outcome: { error: /well-formed/ },
  },
  {
    input: 'tool ids named like Object.prototype members',
    run: (store) => store.update('thread', load(PROTOTYPE_NAMES)),
    outcome: {
      answer: (change: { loaded: string[] }) => expect(change.loaded).toEqual(PROTOTYPE_NAMES),
    },
  },
  {
    input: 'a 1 MB tool id',
    run: async (store) => {
      await store.update('thread', load([ONE_MB]));
      return store.get('thread');
    },
    outcome: {
      answer: (state: { tools: { id: string }[] }) => expect(state.tools[0]?.id).toBe(ONE_MB),
    },
    within: SLOW,
  },
  {
    input: '100,000 tool ids in one load',
    run: (store) => store.update('thread', load(MANY_NAMES, { maxLoadedTools: 3 })),
    outcome: { error: /at most 10000 tool ids/ },
  },
  {
    input: '10,000 tool ids in one load, within a budget of 3',
    run: (store) =>
      store.update('thread', load(MANY_NAMES.slice(0, 10_000), { maxLoadedTools: 3 })),
    outcome: {
      answer: (change: { loaded: string[]; evicted: string[] }) => {
        expect(change.loaded).toEqual(MANY_NAMES.slice(9_997, 10_000));
        expect(change.evicted).toEqual(MANY_NAMES.slice(0, 9_997));
      },
    },
    within: SLOW,
  },
  {
    input: 'a thread of 10,000 tools over a budget of 3, loaded once more',
    run: async (store) => {
      await store.set('thread', {
        tools: MANY_NAMES.slice(0, 10_000).map((id, index) => ({ id, usedAt: index })),
      });
      return store.update('thread', load(['tool_0'], { at: 20_000, maxLoadedTools: 3 }));
    },
    outcome: {
      answer: (change: { alreadyLoaded: string[]; evicted: string[] }) => {
        expect(change.alreadyLoaded).toEqual(['tool_0']);
        expect(change.evicted).toEqual(MANY_NAMES.slice(1, 9_998));
      },
    },
    within: SLOW,
  },
  {
    input: 'a tool id with lone surrogates',
    run: (store) => store.update('thread', load([LONE_SURROGATES])),
    outcome: { error: /well-formed/ },
  },
  ...[Number.NaN, Number.POSITIVE_INFINITY].map(
    (at): Row => ({
      input: `a load at ${at}`,
      run: (store) => store.update('thread', load(['a'], { at })),
      outcome: { error: /finite/ },
    }),
  ),
  {
    input: 'an unknown operation',
    run: (store) => store.update('thread', { type: 'drop-all' } as never),
    outcome: { error: /unknown operation/ },
  },
  {
    input: 'a state whose tools are not a list',
    run: async (store) => {
      await store.set('thread', { tools: 'get_weather' } as never);
      return store.get('thread');
    },
    outcome: { answer: (state: unknown) => expect(state).toBeUndefined() },
  },
  {
    input: 'a key holding something else (another program shares the Redis)',
    run: async (store, admin) => {
      await admin.set(store.keyOf('thread'), 'not json');
      return store.get('thread');
    },
    outcome: { error: /./ },
  },
  {
    input: 'a key holding a Redis hash',
    run: async (store, admin) => {
      await admin.hset(store.keyOf('thread'), 'a', '1');
      return store.update('thread', load(['a']));
    },
    outcome: { error: /WRONGTYPE/ },
  },
];

describe.skipIf(port === 0).each(CLIENT_KINDS)(
  'createRedisStore under hostile input, with $name',
  (kind) => {
    let connection: TestClient;
    let admin: Redis;
    beforeAll(async () => {
      connection = await kind.connect(port);
      admin = adminClient(port);
    });
    afterAll(async () => {
      await connection.close();
      admin.disconnect();
    });

    for (const row of ROWS) {
      const expectation =
        'answer' in row.outcome ? 'a clear answer' : `the error ${row.outcome.error}`;
      it(
        `${row.input} → ${expectation}, a neighbour thread unchanged, within ${(row.within ?? QUICK) / 1000} s`,
        async () => {
          const store = createRedisStore({
            client: connection.client,
            keyPrefix: uniquePrefix('hostile'),
            timeout: PATIENT_TIMEOUT,
          });
          await store.update('neighbour', load(['kept']));
          const before = await store.get('neighbour');
          if ('error' in row.outcome) {
            await expect(row.run(store, admin)).rejects.toThrow(row.outcome.error);
          } else {
            (row.outcome.answer as (output: unknown) => void)(await row.run(store, admin));
          }
          expect(await store.get('neighbour')).toEqual(before);
        },
        row.within ?? QUICK,
      );
    }
  },
);
