/**
 * The gateway under `expose: 'proxy'` driven the way a real app drives it: the AI SDK's own MCP
 * client (which lists tools once and never again) over HTTP, `generateText` with the AI SDK's
 * scripted model, and the npm memory server upstream. The model's tools must stay the same at
 * every step while it finds, loads and calls five tools.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expectStablePrefix } from 'tool-search-testing/prompt-prefix';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpGateway, temporaryDir } from '../test-utils/harness';
import { npmServer } from '../test-utils/servers';

type Step = { tool: string; input: Record<string, unknown> } | { text: string };

const callTool = (name: string, args: Record<string, unknown>): Step => ({
  tool: 'call_tool',
  input: { name, arguments: args },
});

const ADA = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };

/** Five tools found, loaded and called; refused calls in between; 20 model calls in all. */
const LOADS: [string, string, Record<string, unknown>][] = [
  ['create entities in the knowledge graph', 'memory__create_entities', { entities: [ADA] }],
  [
    'add observations to entities',
    'memory__add_observations',
    { observations: [{ entityName: 'Ada', contents: ['liked tea'] }] },
  ],
  ['search nodes', 'memory__search_nodes', { query: 'Ada' }],
  ['open nodes by name', 'memory__open_nodes', { names: ['Ada'] }],
  ['read the whole graph', 'memory__read_graph', {}],
];
const TWENTY_STEPS: Step[] = [
  ...LOADS.flatMap(([query, name, args]): Step[] => [
    { tool: 'search_tools', input: { query } },
    { tool: 'load_tool', input: { toolName: name } },
    callTool(name, args),
  ]),
  callTool('memory__drop_everything', { entityNames: ['Ada'] }),
  callTool('memory__create_entities', { entity: ADA }),
  callTool('memory__search_nodes', { query: 'tea' }),
  callTool('memory__read_graph', {}),
  { text: 'Done.' },
];

/**
 * A scripted model that plays the steps. Under revision 2026-07-28 over HTTP the gateway keeps a
 * conversation's loads under a handle that `load_tool` answers: the model passes it back, as a
 * real model reads it from the result.
 */
function scriptedModel(steps: Step[]) {
  let call = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const step = steps[Math.min(call, steps.length - 1)]!;
      const id = `call-${call++}`;
      if ('text' in step) {
        return {
          content: [{ type: 'text', text: step.text }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: usage(),
          warnings: [],
        };
      }
      const handle = /\\"session\\":\\"([^\\]+)\\"/.exec(JSON.stringify(options.prompt))?.[1];
      const input =
        handle !== undefined && step.tool !== 'search_tools'
          ? { ...step.input, session: handle }
          : step.input;
      return {
        content: [
          { type: 'tool-call', toolCallId: id, toolName: step.tool, input: JSON.stringify(input) },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: usage(),
        warnings: [],
      };
    },
  });
}

function usage() {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the gateway with expose: 'proxy' under the AI SDK's MCP client", () => {
  it.each([
    { revision: '2026-07-28 (server/discover)', protocolVersionDiscovery: true },
    { revision: 'the 2025 session-based revisions', protocolVersionDiscovery: false },
  ])(
    'keeps the tools and the prompt prefix through 20 steps and 5 loads, on $revision',
    async ({ protocolVersionDiscovery }) => {
      const temp = await temporaryDir();
      cleanups.push(temp.remove);
      const memoryFile = join(temp.dir, 'memory.jsonl');
      const served = await startHttpGateway({
        servers: { memory: npmServer('memory', [], { env: { MEMORY_FILE_PATH: memoryFile } }) },
        toolSearch: { enabled: true, expose: 'proxy' },
      });
      cleanups.push(served.close);
      const client = await createMCPClient({
        transport: { type: 'http', url: served.http.url.href },
        protocolVersionDiscovery,
      });
      cleanups.push(() => client.close());
      const tools = await client.tools();
      expect(Object.keys(tools).sort()).toEqual(['call_tool', 'load_tool', 'search_tools']);
      const model = scriptedModel(TWENTY_STEPS);
      const result = await generateText({
        model,
        tools,
        stopWhen: stepCountIs(25),
        prompt: 'Remember Ada, then tell me what you know.',
      });
      expect(result.text).toBe('Done.');
      const requests = model.doGenerateCalls.map((call) => ({
        tools: call.tools ?? [],
        messages: call.prompt,
      }));
      expect(requests).toHaveLength(20);
      expectStablePrefix(requests, 'AI SDK MCP client');
      // Each call ran once upstream: Ada exists once, with both observations; the call of a
      // tool no server offers and the schema-breaking create never ran.
      const graph = (await readFile(memoryFile, 'utf8'))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { type: string; name: string; observations?: string[] });
      expect(graph).toEqual([
        expect.objectContaining({
          type: 'entity',
          name: 'Ada',
          observations: ['wrote the first program', 'liked tea'],
        }),
      ]);
      const outputs = result.steps.flatMap((step) =>
        step.toolResults.filter((part) => part.toolName === 'call_tool').map((part) => part.output),
      );
      const refused = outputs.filter((output) => (output as { isError?: boolean }).isError);
      expect(refused).toHaveLength(2);
      expect(JSON.stringify(refused)).toContain('was not found');
      expect(JSON.stringify(refused)).toContain('at arguments');
    },
    120_000,
  );
});
