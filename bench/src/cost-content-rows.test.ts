import { describe, expect, it } from 'vitest';
import { aiSdkRows } from './cost-ai-sdk';
import { ConversationContent } from './cost-content';
import { gatewayRows, gatewayToolSearch } from './cost-gateway';
import { type PlanStep, pickQueries, planConversation } from './cost-plan';
import { ConversationRecorder } from './cost-recorder';
import { BlockTokenizer, type ModelRequest } from './cost-request';
import { type CostRow, PROXY_OPTIONS } from './cost-row';
import { type ModelAction, type ModelView, ScriptedConversation } from './cost-script';
import type { DataSet } from './data';

/** The gateway row starts an upstream process: generous for a busy machine. */
const GATEWAY_TIMEOUT_MS = 60_000;

const DATA: DataSet = {
  name: 'mini',
  source: 'hand-made',
  file: 'mini.json',
  tools: [
    {
      id: 'get_weather',
      description: 'Current weather forecast for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
    {
      id: 'send_email',
      description: 'Send an email message to a recipient',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    },
  ],
  queries: [
    { query: 'weather forecast for Paris', relevant: ['get_weather'] },
    { query: 'send an email to Bob', relevant: ['send_email'] },
  ],
};

const OUTPUTS = [
  'README.md\n\nThe forecast tool returns the temperature, the wind and the sky for a city.',
  '[FILE] index.js\n[FILE] package.json\n[DIR] dist',
];
const POOL = {
  toolResults: OUTPUTS,
  prose: ['The server lists its tools.', 'Each result is text.'],
  requests: DATA.queries.map((query) => query.query),
};

/** A recorder that also keeps each request as the model received it, before tokenizing. */
class KeepingRecorder extends ConversationRecorder {
  readonly requests: ModelRequest[] = [];
  override respond(request: ModelRequest, view: ModelView): ModelAction {
    this.requests.push(request);
    return super.respond(request, view);
  }
}

async function play(row: CostRow) {
  const plan = planConversation(7, 2) as PlanStep[];
  const tools = new Map(DATA.tools.map((tool) => [tool.id, tool]));
  const content = new ConversationContent({ mode: 'real', pool: POOL, seed: 'rows' });
  const prepared = await row.prepare(DATA);
  const conversation = new ScriptedConversation({
    plan,
    queries: pickQueries(DATA.queries, tools, plan),
    exposure: row.exposure,
    tools,
    content,
    ...(prepared.nameOf && { nameOf: prepared.nameOf }),
    ...(prepared.idOf && { idOf: prepared.idOf }),
  });
  const recorder = new KeepingRecorder(new BlockTokenizer(), conversation);
  try {
    await prepared.play(conversation, recorder);
  } finally {
    await prepared.close();
  }
  const results = recorder.requests
    .at(-1)!
    .messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === 'tool_result' ? [block.content] : [])),
    );
  const expected = plan.flatMap((step, index) =>
    step.kind === 'call' ? [content.toolResult(index)!] : [],
  );
  return { conversation, recorder, results, expected };
}

describe('real content through the rows', () => {
  it("puts each step's MCP output into the AI SDK prompt as the tool's result object", async () => {
    const [row] = aiSdkRows([{ key: 'ai-sdk-proxy', label: 'proxy', options: PROXY_OPTIONS }]);
    const { conversation, recorder, results, expected } = await play(row!);
    expect(conversation.tally).toMatchObject({ calls: 2, loads: 2, missedLoads: 0 });
    expect(expected).toHaveLength(2);
    for (const text of expected) {
      expect(OUTPUTS).toContain(text);
      expect(results).toContain(JSON.stringify({ content: [{ type: 'text', text }] }));
    }
    // Each turn opens with the request its search is for, then other requests.
    const first = recorder.requests[0]!.messages[0]!.content[0]!;
    expect(first.type === 'text' && first.text.startsWith('weather forecast for Paris')).toBe(true);
    expect(recorder.steps[0]!.turnStart).toBe(true);
    expect(recorder.steps[1]!.turnStart).toBe(false);
  });

  it('has the gateway upstream answer each call with the output of its step, as MCP text', {
    timeout: GATEWAY_TIMEOUT_MS,
  }, async () => {
    const [row] = gatewayRows([{ key: 'mcp-proxy', label: 'proxy', options: PROXY_OPTIONS }]);
    const { conversation, results, expected } = await play(row!);
    expect(conversation.tally).toMatchObject({ calls: 2, loads: 2, missedLoads: 0 });
    // The seed gives the two calls different outputs: each call reads its own step's.
    expect(new Set(expected).size).toBe(2);
    for (const text of expected) {
      expect(results.some((result) => result.includes(text))).toBe(true);
      expect(results).not.toContain(JSON.stringify({ content: [{ type: 'text', text }] }));
    }
  });
});

describe('gatewayToolSearch', () => {
  it("flattens a row's search options into the gateway's toolSearch config", () => {
    expect(
      gatewayToolSearch({
        expose: 'proxy',
        search: { topK: 5, definitions: 3 },
        toolSearch: true,
      }),
    ).toEqual({ expose: 'proxy', topK: 5, definitions: 3, enabled: true });
    expect(gatewayToolSearch({ toolSearch: { threshold: 800 } })).toEqual({
      enabled: 'auto',
      threshold: 800,
    });
    expect(gatewayToolSearch(undefined)).toBeUndefined();
  });
});
