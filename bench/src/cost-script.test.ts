import { describe, expect, it } from 'vitest';
import { ConversationContent } from './cost-content';
import { type PlanStep, planConversation } from './cost-plan';
import { type Exposure, type ModelView, ScriptedConversation } from './cost-script';
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
  { id: 'book_room', description: 'Book a meeting room', inputSchema: { type: 'object' } },
];
const QUERIES: DataQuery[] = [
  { query: 'weather in Paris', relevant: ['get_weather'] },
  { query: 'mail Bob', relevant: ['send_email'] },
];

const META = ['search_tools', 'load_tool'];
const PROXY_META = [...META, 'call_tool'];

function conversation(
  exposure: Exposure,
  plan = planConversation(4, 1),
  content?: ConversationContent,
) {
  return new ScriptedConversation({
    plan: plan as PlanStep[],
    queries: QUERIES,
    exposure,
    tools: new Map(TOOLS.map((tool) => [tool.id, tool])),
    ...(content && { content }),
  });
}

/**
 * A framework stand-in: the tools offered and every tool result so far, as a prompt shows them.
 * `answer` gives the result of each tool call the model makes.
 */
class View {
  readonly results: ModelView['results'][number][] = [];
  constructor(public toolNames: string[]) {}
  get(): ModelView {
    return { toolNames: this.toolNames, results: [...this.results] };
  }
  answer(toolName: string, output: unknown): void {
    this.results.push({ toolName, output });
  }
}

const found = (...names: string[]) => ({ results: names.map((name) => ({ name })) });
const withDefinitions = (shown: string[], defined: string[]) => ({
  ...found(...shown),
  tools: defined.map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
});

describe('ScriptedConversation', () => {
  it('searches, loads the labelled tool the search showed, and calls it with valid arguments', () => {
    const played = conversation('tools');
    expect(played.nextUserMessage()).toBe('weather in Paris');
    const view = new View(META);
    expect(played.act(view.get())).toMatchObject({
      toolName: 'search_tools',
      input: { query: 'weather in Paris' },
    });
    view.answer('search_tools', found('send_email', 'get_weather'));
    expect(played.act(view.get())).toMatchObject({
      toolName: 'load_tool',
      input: { toolName: 'get_weather' },
    });
    view.answer('load_tool', '{"success":true}');
    view.toolNames = [...META, 'get_weather'];
    expect(played.act(view.get())).toMatchObject({
      toolName: 'get_weather',
      input: { city: 'example' },
    });
    view.answer('get_weather', { status: 'done' });
    expect(played.act(view.get())).toEqual({ text: 'Here is the answer to step 4.' });
    expect(played.finished).toBe(true);
    expect(played.tally).toMatchObject({ searches: 1, searchMisses: 0, loads: 1, calls: 1 });
    expect(played.requestsPerToolUse).toBe(3);
  });

  it('calls through call_tool under proxy, and gives up when the meta-tools have no call_tool', () => {
    const proxy = conversation('proxy');
    const view = new View(PROXY_META);
    proxy.act(view.get());
    view.answer('search_tools', found('get_weather'));
    proxy.act(view.get());
    view.answer('load_tool', { success: true });
    expect(proxy.act(view.get())).toMatchObject({
      toolName: 'call_tool',
      input: { name: 'get_weather', arguments: { city: 'example' } },
    });

    const without = conversation('proxy');
    expect(without.act(new View(META).get())).toEqual({ text: 'n/a' });
    expect(without.unsupported).toBe(true);
    expect(without.finished).toBe(true);
  });

  it('calls at once, in one request, a tool it is given (every tool, or auto below its threshold)', () => {
    for (const exposure of ['every-tool', 'proxy', 'default'] as const) {
      const played = conversation(exposure);
      expect(played.nextUserMessage()).toBe('weather in Paris');
      const view = new View(TOOLS.map((tool) => tool.id));
      expect(played.act(view.get())).toMatchObject({
        toolName: 'get_weather',
        input: { city: 'example' },
      });
      expect(played.unsupported).toBe(false);
      expect(played.act(view.get())).toHaveProperty('text');
      expect(played.finished).toBe(true);
      expect(played.requestsPerToolUse).toBe(1);
    }
  });

  it('counts each search once, though the steps after it still show its result', () => {
    const played = conversation('tools', planConversation(5, 1));
    const view = new View(META);
    played.act(view.get());
    view.answer('search_tools', { results: [] });
    played.act(view.get());
    played.act(view.get());
    expect(played.tally).toMatchObject({ searches: 1, emptySearches: 1 });
  });

  it('searches again with the tool name when the search did not show it, then loads it', () => {
    const played = conversation('tools');
    const view = new View(META);
    played.act(view.get());
    view.answer('search_tools', found('send_email'));
    expect(played.act(view.get())).toMatchObject({
      toolName: 'search_tools',
      input: { query: 'get_weather' },
    });
    view.answer('search_tools', found('get_weather'));
    const load = played.act(view.get());
    expect(load).toMatchObject({ toolName: 'load_tool', input: { toolName: 'get_weather' } });
    view.answer('load_tool', { success: true });
    view.toolNames = [...META, 'get_weather'];
    expect(played.act(view.get())).toMatchObject({ toolName: 'get_weather' });
    expect(played.tally).toMatchObject({ searches: 2, searchMisses: 1, namedLoads: 0, loads: 1 });
    expect(played.requestsPerToolUse).toBe(4);
  });

  it('loads the tool by name when the search by name misses too', () => {
    const played = conversation('proxy');
    const view = new View(PROXY_META);
    played.act(view.get());
    view.answer('search_tools', found());
    played.act(view.get());
    view.answer('search_tools', found('send_email'));
    expect(played.act(view.get())).toMatchObject({
      toolName: 'load_tool',
      input: { toolName: 'get_weather' },
    });
    view.answer('load_tool', { success: true });
    expect(played.act(view.get())).toMatchObject({ toolName: 'call_tool' });
    expect(played.tally).toMatchObject({ searchMisses: 1, namedLoads: 1, loads: 1 });
  });

  it('calls a tool at once when the search answer carries its definition and call_tool is offered', () => {
    const played = conversation('proxy');
    const view = new View(PROXY_META);
    played.act(view.get());
    view.answer('search_tools', withDefinitions(['get_weather', 'send_email'], ['get_weather']));
    expect(played.act(view.get())).toMatchObject({
      toolName: 'call_tool',
      input: { name: 'get_weather', arguments: { city: 'example' } },
    });
    expect(played.tally).toMatchObject({ definitionCalls: 1, loads: 1 });
    expect(played.requestsPerToolUse).toBe(2);
  });

  it('loads a tool the answer lists without its definition, or when no call_tool is offered', () => {
    const proxy = conversation('proxy');
    const view = new View(PROXY_META);
    proxy.act(view.get());
    view.answer('search_tools', withDefinitions(['send_email', 'get_weather'], ['send_email']));
    expect(proxy.act(view.get())).toMatchObject({ toolName: 'load_tool' });

    const tools = conversation('tools');
    const toolsView = new View(META);
    tools.act(toolsView.get());
    toolsView.answer('search_tools', withDefinitions(['get_weather'], ['get_weather']));
    expect(tools.act(toolsView.get())).toMatchObject({ toolName: 'load_tool' });
    expect(tools.tally.definitionCalls).toBe(0);
  });

  it('calls without searching a tool whose definition an earlier search answer carried', () => {
    const played = conversation('proxy', planConversation(7, 2));
    const view = new View(PROXY_META);
    played.act(view.get());
    view.answer(
      'search_tools',
      withDefinitions(['get_weather', 'send_email'], ['get_weather', 'send_email']),
    );
    played.act(view.get()); // calls get_weather
    view.answer('call_tool', { status: 'done' });
    expect(played.act(view.get())).toMatchObject({
      toolName: 'call_tool',
      input: { name: 'send_email' },
    });
    expect(played.tally).toMatchObject({ searches: 1, loads: 2 });
    expect(played.requestsPerToolUse).toBe(1.5);
  });

  it('natively, calls a tool its search found (the search was the load)', () => {
    const played = conversation('native');
    // Natively every catalog tool is listed, deferred.
    const view = new View(['search_tools', ...TOOLS.map((tool) => tool.id)]);
    played.act(view.get());
    view.answer('search_tools', found('get_weather'));
    expect(played.act(view.get())).toMatchObject({ toolName: 'get_weather' });
    expect(played.requestsPerToolUse).toBe(2);
  });

  it('natively, searches again by name after a miss, and fails the tool use after a second one', () => {
    const played = conversation('native');
    const view = new View(['search_tools', ...TOOLS.map((tool) => tool.id)]);
    played.act(view.get());
    view.answer('search_tools', found('send_email'));
    expect(played.act(view.get())).toMatchObject({
      toolName: 'search_tools',
      input: { query: 'get_weather' },
    });
    view.answer('search_tools', found('book_room'));
    expect(played.act(view.get())).toEqual({ text: 'I found no tool for that (step 3).' });
    expect(played.tally).toMatchObject({ searchMisses: 1, missedLoads: 1, loads: 0, calls: 0 });
    expect(played.requestsPerToolUse).toBeUndefined();
  });

  it('gives each request its own call id, a step that takes two requests too', () => {
    const played = conversation('tools');
    const view = new View(META);
    const ids = new Set<string>();
    const record = (action: ReturnType<ScriptedConversation['act']>) => {
      if ('id' in action) ids.add(action.id);
    };
    record(played.act(view.get()));
    view.answer('search_tools', found());
    record(played.act(view.get()));
    view.answer('search_tools', found('get_weather'));
    record(played.act(view.get()));
    expect(ids.size).toBe(3);
  });
});

describe('ScriptedConversation content', () => {
  const POOL = {
    toolResults: ['first real output', 'second real output', 'third real output'],
    prose: ['The server lists its tools.', 'Each tool has a schema.', 'Results come back as text.'],
    requests: QUERIES.map((query) => query.query),
  };

  it('opens each turn with its request, marks the first request of a turn, and answers from the pool', () => {
    const content = new ConversationContent({ mode: 'real', pool: POOL, seed: 'test' });
    const played = conversation('tools', planConversation(4, 1), content);
    const message = played.nextUserMessage();
    expect(message.startsWith('weather in Paris')).toBe(true);
    expect(played.takeTurnStart()).toBe(true);
    expect(played.takeTurnStart()).toBe(false);
    const view = new View(META);
    played.act(view.get());
    view.answer('search_tools', found('get_weather'));
    played.act(view.get());
    view.answer('load_tool', { success: true });
    view.toolNames = [...META, 'get_weather'];
    played.act(view.get());
    expect(POOL.toolResults).toContain(played.currentToolResult());
    expect(played.currentToolResult()).toBe(content.toolResult(2));
    const answer = played.act(view.get()) as { text: string };
    expect(POOL.prose.some((sentence) => answer.text.includes(sentence))).toBe(true);
  });

  it('keeps the minimal script by default', () => {
    const played = conversation('tools');
    expect(played.nextUserMessage()).toBe('weather in Paris');
    expect(played.currentToolResult()).toBeUndefined();
  });
});
