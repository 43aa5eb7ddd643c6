/**
 * A tool-search engine on the Redis store, in its own OS process: the tests start two of these
 * to show that separate server instances share a thread. Configured by a JSON argument
 * (`{ port, keyPrefix, maxLoadedTools? }`); answers one JSON line per request line on stdin:
 * - `{ id, op: 'load', threadId, names }`: every name loaded at once, each in its own session
 *   (as concurrent requests would); replies `{ id, results }` with each `load_tool` output;
 * - `{ id, op: 'active', threadId }`: replies `{ id, active }`, the active tool ids in order;
 * - `{ id, op: 'unload', threadId, names }`: replies `{ id, result }`.
 */
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { createToolSearchEngine } from 'tool-search-core';
import { createRedisStore } from '../create-redis-store';
import { recommendedIoRedisOptions } from '../recommended-client-options';
import { numberedCatalog } from './catalog';

interface WorkerConfig {
  port: number;
  keyPrefix: string;
  maxLoadedTools?: number;
}

interface WorkerRequest {
  id: number;
  op: 'load' | 'active' | 'unload';
  threadId: string;
  names?: string[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
const client = new Redis({ port: config.port, host: '127.0.0.1', ...recommendedIoRedisOptions });
client.on('error', () => {});
const errors: unknown[] = [];
const engine = createToolSearchEngine({
  tools: numberedCatalog(100),
  describe: (tool, key) => ({ id: key, description: tool.description }),
  storage: createRedisStore({ client, keyPrefix: config.keyPrefix, timeout: 10_000 }),
  unloadTool: true,
  ...(config.maxLoadedTools !== undefined && { maxLoadedTools: config.maxLoadedTools }),
  onError: (event) => errors.push(String(event.error)),
});

function metaTool(threadId: string, name: string) {
  const tool = engine.createSession({ threadId }).metaTools.find((meta) => meta.name === name);
  if (!tool) throw new Error(`no ${name}`);
  return tool;
}

async function answer(request: WorkerRequest): Promise<Record<string, unknown>> {
  switch (request.op) {
    case 'load':
      return {
        results: await Promise.all(
          (request.names ?? []).map((toolName) =>
            metaTool(request.threadId, 'load_tool').execute({ toolName }),
          ),
        ),
      };
    case 'unload':
      return {
        result: await metaTool(request.threadId, 'unload_tool').execute({
          toolNames: request.names,
        }),
      };
    case 'active':
      return {
        active: (await engine.createSession({ threadId: request.threadId }).activeTools()).map(
          (tool) => tool.id,
        ),
      };
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line) as WorkerRequest;
  answer(request).then(
    (reply) => process.stdout.write(`${JSON.stringify({ id: request.id, ...reply, errors })}\n`),
    (error: unknown) =>
      process.stdout.write(`${JSON.stringify({ id: request.id, crash: String(error) })}\n`),
  );
});
lines.on('close', () => {
  client.disconnect();
});
client.once('ready', () => process.stdout.write('{"ready":true}\n'));
