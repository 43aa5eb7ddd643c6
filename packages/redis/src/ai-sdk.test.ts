import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createToolSearch } from 'tool-search-ai-sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { createRedisStore } from './create-redis-store';
import { CLIENT_KINDS, type TestClient, uniquePrefix } from './test-utils/clients';

const port = inject('redisPort');

type Step = { toolName: string; input: Record<string, unknown> } | { text: string };

/** ai 7's own mock model, answering each call with the next scripted step. */
function scriptedModel(script: Step[]) {
  let call = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      const step = script[Math.min(call, script.length - 1)]!;
      const content =
        'text' in step
          ? [{ type: 'text' as const, text: step.text }]
          : [
              {
                type: 'tool-call' as const,
                toolCallId: `call-${call}`,
                toolName: step.toolName,
                input: JSON.stringify(step.input),
              },
            ];
      call++;
      const reason = 'text' in step ? 'stop' : 'tool-calls';
      return {
        content,
        finishReason: { unified: reason, raw: reason },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return {
    model,
    sentTools: () => model.doGenerateCalls.map((each) => (each.tools ?? []).map((t) => t.name)),
  };
}

function catalog(executions: string[]) {
  const weather = tool({
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      executions.push(city);
      return { city, sky: 'sunny' };
    },
  });
  const email = tool({
    description: 'Send an email',
    inputSchema: z.object({ to: z.string() }),
    execute: async () => ({ sent: true }),
  });
  return { get_weather: weather, send_email: email };
}

describe.skipIf(port === 0)('the AI SDK adapter on the Redis store', () => {
  let instances: TestClient[];

  beforeAll(async () => {
    // Two connections: two server instances behind a load balancer.
    const ioredis = CLIENT_KINDS.find((kind) => kind.name === 'ioredis')!;
    instances = await Promise.all([ioredis.connect(port), ioredis.connect(port)]);
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
  });

  it('keeps a thread’s loaded tools for the next request on another instance', async () => {
    const keyPrefix = uniquePrefix('ai-sdk');
    const executions: string[] = [];
    const searchFor = (instance: TestClient) =>
      createToolSearch({
        toolSearch: true,
        tools: catalog(executions),
        storage: createRedisStore({ client: instance.client, keyPrefix, timeout: 10_000 }),
        threadId: 'chat-42',
        expose: 'tools',
      });

    const first = searchFor(instances[0]!);
    const firstModel = scriptedModel([
      { toolName: 'search_tools', input: { query: 'weather' } },
      { toolName: 'load_tool', input: { toolName: 'get_weather' } },
      { toolName: 'get_weather', input: { city: 'Paris' } },
      { text: 'Sunny in Paris.' },
    ]);
    const result = await generateText({
      model: firstModel.model,
      tools: first.tools,
      prepareStep: first.prepareStep,
      stopWhen: stepCountIs(6),
      prompt: 'Weather in Paris?',
    });
    expect(result.text).toBe('Sunny in Paris.');
    expect(executions).toEqual(['Paris']);
    expect(firstModel.sentTools()[2]).toEqual(['search_tools', 'load_tool', 'get_weather']);

    // A new request, on the other instance, without the earlier messages.
    const second = searchFor(instances[1]!);
    const secondModel = scriptedModel([
      { toolName: 'get_weather', input: { city: 'Oslo' } },
      { text: 'Sunny in Oslo.' },
    ]);
    await generateText({
      model: secondModel.model,
      tools: second.tools,
      prepareStep: second.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: 'And in Oslo?',
    });
    expect(secondModel.sentTools()[0]).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(executions).toEqual(['Paris', 'Oslo']);
  });

  it("runs a tool loaded on one instance through call_tool on another, under expose: 'proxy'", async () => {
    const keyPrefix = uniquePrefix('ai-sdk-proxy');
    const executions: string[] = [];
    const searchFor = (instance: TestClient) =>
      createToolSearch({
        toolSearch: true,
        tools: catalog(executions),
        storage: createRedisStore({ client: instance.client, keyPrefix, timeout: 10_000 }),
        threadId: 'chat-43',
        expose: 'proxy',
      });
    const meta = ['search_tools', 'load_tool', 'call_tool'];
    const first = searchFor(instances[0]!);
    const firstModel = scriptedModel([
      { toolName: 'load_tool', input: { toolName: 'get_weather' } },
      { text: 'Loaded.' },
    ]);
    await generateText({
      model: firstModel.model,
      tools: first.tools,
      prepareStep: first.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: 'Get ready for the weather.',
    });
    const second = searchFor(instances[1]!);
    const secondModel = scriptedModel([
      { toolName: 'call_tool', input: { name: 'get_weather', arguments: { city: 'Oslo' } } },
      { text: 'Sunny in Oslo.' },
    ]);
    await generateText({
      model: secondModel.model,
      tools: second.tools,
      prepareStep: second.prepareStep,
      stopWhen: stepCountIs(4),
      prompt: 'In Oslo?',
    });
    for (const sent of [...firstModel.sentTools(), ...secondModel.sentTools()])
      expect(sent).toEqual(meta);
    // The load on the first instance lets the second run it.
    expect(executions).toEqual(['Oslo']);
  });
});
