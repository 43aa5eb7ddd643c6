import { describe, expect, it } from 'vitest';
import { aiSdkRows, everyToolRow } from './cost-ai-sdk';
import { type PlanStep, planConversation } from './cost-plan';
import { prefixChange } from './cost-pricing';
import { ConversationRecorder } from './cost-recorder';
import { BlockTokenizer } from './cost-request';
import { type CostRow, PROXY_OPTIONS, TOOLS_OPTIONS } from './cost-row';
import { ScriptedConversation } from './cost-script';
import type { DataSet } from './data';

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
    { id: 'create_invoice', description: 'Create an invoice for a customer', inputSchema: {} },
    { id: 'book_meeting', description: 'Book a meeting room', inputSchema: { type: 'object' } },
  ],
  queries: [
    { query: 'weather forecast for Paris', relevant: ['get_weather'] },
    { query: 'send an email to Bob', relevant: ['send_email'] },
    { query: 'book a meeting room', relevant: ['book_meeting'] },
  ],
};

const [toolsRow, proxyRow] = aiSdkRows([
  { key: 'ai-sdk-tools', label: 'tools', options: TOOLS_OPTIONS },
  { key: 'ai-sdk-proxy', label: 'proxy', options: PROXY_OPTIONS },
]) as [CostRow, CostRow];

async function play(row: CostRow) {
  const plan = planConversation(14, 2) as PlanStep[];
  const prepared = await row.prepare(DATA);
  const conversation = new ScriptedConversation({
    plan,
    queries: DATA.queries,
    exposure: row.exposure,
    tools: new Map(DATA.tools.map((tool) => [tool.id, tool])),
  });
  const recorder = new ConversationRecorder(new BlockTokenizer(), conversation);
  await prepared.play(conversation, recorder);
  await prepared.close();
  const changes = recorder.steps
    .slice(1)
    .map((step, index) => prefixChange(recorder.steps[index]!.request, step.request));
  return { conversation, steps: recorder.steps, changes };
}

describe('bench:cost through the AI SDK', () => {
  it('sends every tool unchanged on every request, without searching', async () => {
    const { conversation, steps, changes } = await play(everyToolRow);
    expect(steps.every((step) => step.request.toolBlocks === DATA.tools.length)).toBe(true);
    // 14 planned steps minus 2 searches and 2 loads; the rest extend the request before them.
    expect(steps).toHaveLength(10);
    expect(changes.every((change) => change === 'extends')).toBe(true);
    expect(conversation.tally).toMatchObject({ loads: 2, calls: 5, validCalls: 5 });
  });

  it("changes the tools at each load with expose: 'tools'", async () => {
    const { conversation, steps, changes } = await play(toolsRow);
    expect(steps).toHaveLength(14);
    expect(conversation.tally).toMatchObject({ loads: 2, missedLoads: 0, calls: 5 });
    expect(changes.filter((change) => change === 'tools')).toHaveLength(2);
    expect(changes.filter((change) => change === 'earlier')).toHaveLength(0);
  });

  it("keeps every request a prefix of the next with expose: 'proxy', two requests a tool use", async () => {
    const { conversation, steps, changes } = await play(proxyRow);
    expect(conversation.unsupported).toBe(false);
    // The search's answer carries the found tool's definition: call_tool runs it next, no load.
    expect(steps).toHaveLength(12);
    expect(conversation.tally).toMatchObject({ loads: 2, definitionCalls: 2, missedLoads: 0 });
    expect(conversation.requestsPerToolUse).toBe(2);
    expect(changes.every((change) => change === 'extends')).toBe(true);
  });

  it('calls a tool found with its definition in the request after the search (two requests a use)', async () => {
    // The engine's autoLoad under 'proxy' answers a search with the definitions of what it
    // found and loads them, as issue 31's search.definitions will: call_tool can run them next.
    const [autoLoad] = aiSdkRows([
      {
        key: 'ai-sdk-proxy-autoload',
        label: 'autoLoad',
        options: { ...PROXY_OPTIONS, search: { topK: 5, autoLoad: true } as never },
      },
    ]);
    const { conversation, steps, changes } = await play(autoLoad!);
    expect(conversation.tally).toMatchObject({ loads: 2, definitionCalls: 2, missedLoads: 0 });
    expect(conversation.requestsPerToolUse).toBe(2);
    // Two fewer requests than with load_tool, and the prefix still never breaks.
    expect(steps).toHaveLength(12);
    expect(changes.every((change) => change === 'extends')).toBe(true);
  });
});
