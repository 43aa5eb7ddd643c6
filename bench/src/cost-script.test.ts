import { describe, expect, it } from 'vitest';
import { type PlanStep, planConversation } from './cost-plan';
import { type ModelAction, type ModelView, ScriptedConversation } from './cost-script';
import type { DataQuery, DataTool } from './data';

const kinds = (plan: PlanStep[] | string) =>
  typeof plan === 'string' ? plan : plan.map((step) => step.kind[0]).join('');

describe('planConversation', () => {
  it('puts a search before each load, a call after it, and an answer last; without loads, a chat', () => {
    expect(kinds(planConversation(10, 3))).toBe('slcslcslca');
    expect(kinds(planConversation(10, 0))).toBe('aaaaaaaaaa');
    expect(kinds(planConversation(20, 3))).toBe('slcacaslcacacslcacaa');
    expect(kinds(planConversation(12, 1))).toBe('slcacacacaca');
  });

  it('plans every step, the loads asked for, and a turn end at the last step', () => {
    const stepCounts = [...Array.from({ length: 30 }, (_, index) => index + 1), 50, 200];
    for (const steps of stepCounts) {
      for (let loads = 0; loads <= 10; loads++) {
        const plan = planConversation(steps, loads);
        if (typeof plan === 'string') {
          expect(steps).toBeLessThan(2 * loads + 1);
          continue;
        }
        expect(plan).toHaveLength(steps);
        expect(plan.filter((step) => step.kind === 'load')).toHaveLength(loads);
        expect(plan.at(-1)!.kind).toBe('answer');
        plan.forEach((step, index) => {
          if (step.kind === 'load')
            expect(plan[index - 1]).toEqual({ kind: 'search', query: step.query });
        });
      }
    }
  });

  it('says why when the loads do not fit the steps', () => {
    expect(planConversation(10, 10)).toMatch(/10 loads need at least 21 steps/);
  });
});

const TOOLS: DataTool[] = [
  {
    id: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  { id: 'send_email', description: 'Send an email', inputSchema: { type: 'object' } },
];
const QUERIES: DataQuery[] = [
  { query: 'weather in Paris', relevant: ['get_weather'] },
  { query: 'mail Bob', relevant: ['send_email'] },
];

function conversation(exposure: 'every-tool' | 'tools' | 'proxy', plan = planConversation(4, 1)) {
  return new ScriptedConversation({
    plan: plan as PlanStep[],
    queries: QUERIES,
    exposure,
    tools: new Map(TOOLS.map((tool) => [tool.id, tool])),
  });
}

const view = (toolNames: string[], results: ModelView['results'] = []): ModelView => ({
  toolNames,
  results,
});

describe('ScriptedConversation', () => {
  it('searches, loads the labelled tool the search showed, and calls it with valid arguments', () => {
    const played = conversation('tools');
    expect(played.nextUserMessage()).toBe('weather in Paris');
    const meta = ['search_tools', 'load_tool'];
    expect(played.act(view(meta))).toMatchObject({
      toolName: 'search_tools',
      input: { query: 'weather in Paris' },
    });
    const found = { results: [{ name: 'send_email' }, { name: 'get_weather' }] };
    const searched = [{ toolName: 'search_tools', output: found }];
    expect(played.act(view(meta, searched))).toMatchObject({
      toolName: 'load_tool',
      input: { toolName: 'get_weather' },
    });
    const loaded = [...searched, { toolName: 'load_tool', output: '{"success":true}' }];
    const call = played.act(view([...meta, 'get_weather'], loaded)) as ModelAction;
    expect(call).toMatchObject({ toolName: 'get_weather', input: { city: 'example' } });
    const called = [...loaded, { toolName: 'get_weather', output: { status: 'done' } }];
    expect(played.act(view(meta, called))).toEqual({ text: 'Here is the answer to step 4.' });
    expect(played.finished).toBe(true);
    expect(played.tally).toEqual({
      searches: 1,
      emptySearches: 0,
      searchMisses: 0,
      loads: 1,
      missedLoads: 0,
      calls: 1,
      validCalls: 1,
    });
  });

  it('calls through call_tool under proxy, and gives up when call_tool is not offered', () => {
    const proxy = conversation('proxy');
    const meta = ['search_tools', 'load_tool', 'call_tool'];
    proxy.act(view(meta));
    const searched = [{ toolName: 'search_tools', output: { results: [{ name: 'get_weather' }] } }];
    proxy.act(view(meta, searched));
    const loaded = [...searched, { toolName: 'load_tool', output: { success: true } }];
    expect(proxy.act(view(meta, loaded))).toMatchObject({
      toolName: 'call_tool',
      input: { name: 'get_weather', arguments: { city: 'example' } },
    });

    const without = conversation('proxy');
    expect(without.act(view(['search_tools', 'load_tool']))).toEqual({ text: 'n/a' });
    expect(without.unsupported).toBe(true);
    expect(without.finished).toBe(true);
  });

  it('skips searches and loads when every tool is sent, and calls the labelled tool', () => {
    const every = conversation('every-tool');
    expect(every.nextUserMessage()).toBe('weather in Paris');
    expect(every.act(view(['get_weather', 'send_email']))).toMatchObject({
      toolName: 'get_weather',
      input: { city: 'example' },
    });
    expect(every.act(view(['get_weather', 'send_email']))).toHaveProperty('text');
    expect(every.finished).toBe(true);
  });

  it('counts each search once, though the steps after it still show its result', () => {
    const played = conversation('tools', planConversation(5, 1));
    const meta = ['search_tools', 'load_tool'];
    played.act(view(meta));
    const searched = [{ toolName: 'search_tools', output: { results: [] } }];
    played.act(view(meta, searched));
    played.act(view(meta, searched));
    expect(played.tally).toMatchObject({ searches: 1, emptySearches: 1 });
  });

  it('loads the labelled tool by name when the search did not show it, and counts the miss', () => {
    const played = conversation('tools');
    played.act(view(['search_tools', 'load_tool']));
    const nothing = [{ toolName: 'search_tools', output: { results: [] } }];
    expect(played.act(view(['search_tools', 'load_tool'], nothing))).toMatchObject({
      toolName: 'load_tool',
      input: { toolName: 'get_weather' },
    });
    expect(played.tally).toMatchObject({ searches: 1, emptySearches: 1, searchMisses: 1 });
  });
});
