import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CallLog,
  createCatalog,
  recordBoundTools,
  type Step,
  scriptedModel,
} from './testing/fixtures';
import { connectMcpTools } from './testing/mcp-server';
import { type ToolSearchMiddlewareOptions, toolSearchMiddleware } from './tool-search-middleware';
import type { LangChainTool, ToolSearchRuntime } from './tool-search-options';

const META = ['search_tools', 'load_tool'];

// Real MCP tools (an SDK server in this process over an in-memory transport), resolved per request.
let mcp: Awaited<ReturnType<typeof connectMcpTools>>;
const serverLog: string[] = [];

beforeAll(async () => {
  mcp = await connectMcpTools(serverLog);
});

beforeEach(() => {
  serverLog.length = 0;
});

afterAll(async () => {
  await mcp?.close();
});

function buildAgent(steps: Step[], options: Partial<ToolSearchMiddlewareOptions>) {
  const log: CallLog = [];
  const recorder = recordBoundTools();
  const agent = createAgent({
    model: scriptedModel(steps),
    tools: [],
    middleware: [
      toolSearchMiddleware({
        toolSearch: true,
        expose: 'tools',
        tools: createCatalog(log),
        ...options,
      }),
      recorder.middleware,
    ],
  });
  return { agent, log, bound: recorder.calls };
}

const ask = (text: string) => ({ messages: [new HumanMessage(text)] });

function toolMessages(result: { messages: unknown[] }): ToolMessage[] {
  return result.messages.filter((message): message is ToolMessage =>
    ToolMessage.isInstance(message),
  );
}

/** A per-caller drive tool whose description counts its reads (describing a tool reads it). */
function driveTool(owner: string, calls: string[]) {
  let reads = 0;
  const drive = tool(
    async () => {
      calls.push(owner);
      return `${owner}'s files: notes.txt`;
    },
    {
      name: 'drive_list',
      description: 'placeholder',
      schema: z.object({ folder: z.string().describe('Cloud drive folder') }),
    },
  );
  Object.defineProperty(drive, 'description', {
    get: () => {
      reads++;
      return 'List the files in a cloud drive folder';
    },
  });
  return { tool: drive as unknown as LangChainTool, reads: () => reads };
}

const userOf = (runtime: ToolSearchRuntime | undefined) =>
  (runtime?.context as { user?: string } | undefined)?.user ?? 'nobody';

describe('toolSearchMiddleware with resolveTools', () => {
  it('searches, loads and runs MCP tools resolved for the request on their server', async () => {
    const { agent, log, bound } = buildAgent(
      [
        { calls: [{ name: 'search_tools', args: { query: 'marina tide' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'tide_times' } }] },
        { calls: [{ name: 'tide_times', args: { port: 'Cascais', date: '2025-06-01' } }] },
        { answer: 'High tide at 06:12.' },
      ],
      { resolveTools: () => mcp.tools },
    );
    const result = await agent.invoke(ask('High tide in Cascais?'));
    const [search, load, call] = toolMessages(result);
    expect(JSON.parse(search!.text).results[0].name).toBe('tide_times');
    expect(JSON.parse(load!.text)).toMatchObject({ success: true, toolName: 'tide_times' });
    expect(call!.status).not.toBe('error');
    expect(call!.text).toBe('High tide in Cascais on 2025-06-01 at 06:12');
    expect(bound).toEqual([META, META, [...META, 'tide_times'], [...META, 'tide_times']]);
    expect(serverLog).toEqual(['tide_times']);
    expect(log).toEqual([]);
  });

  it('gives each caller their own instance and refuses an unloaded resolved tool', async () => {
    const calls: string[] = [];
    const drives = { alice: driveTool('alice', calls).tool, bob: driveTool('bob', calls).tool };
    const options: Partial<ToolSearchMiddlewareOptions> = {
      resolveTools: (runtime) => {
        const drive = drives[userOf(runtime) as keyof typeof drives];
        return drive ? [drive] : [];
      },
    };
    const loadAndCall: Step[] = [
      { calls: [{ name: 'load_tool', args: { toolName: 'drive_list' } }] },
      { calls: [{ name: 'drive_list', args: { folder: '/' } }] },
      { answer: 'done' },
    ];
    await buildAgent(loadAndCall, options).agent.invoke(ask('my files'), {
      context: { user: 'bob' },
    });
    await buildAgent(loadAndCall, options).agent.invoke(ask('my files'), {
      context: { user: 'alice' },
    });
    expect(calls).toEqual(['bob', 'alice']);

    const unloaded = await buildAgent(
      [{ calls: [{ name: 'drive_list', args: { folder: '/' } }] }, { answer: 'no' }],
      options,
    ).agent.invoke(ask('my files'), { context: { user: 'alice' } });
    expect(calls).toEqual(['bob', 'alice']);
    expect(toolMessages(unloaded)[0]!.status).toBe('error');

    const stranger = await buildAgent(
      [
        { calls: [{ name: 'search_tools', args: { query: 'cloud drive files' } }] },
        { answer: 'no' },
      ],
      options,
    ).agent.invoke(ask('my files'), { context: { user: 'mallory' } });
    const names = JSON.parse(toolMessages(stranger)[0]!.text).results.map(
      (hit: { name: string }) => hit.name,
    );
    expect(names).not.toContain('drive_list');
  });

  it('describes a resolved tool once while the same object comes back, and again when it changes', async () => {
    const first = driveTool('alice', []);
    let current = first.tool;
    const steps: Step[] = [
      { calls: [{ name: 'search_tools', args: { query: 'cloud drive files' } }] },
      { calls: [{ name: 'search_tools', args: { query: 'drive folder' } }] },
      { answer: 'done' },
    ];
    const options = { resolveTools: () => [current] };
    const middleware = toolSearchMiddleware({
      toolSearch: true,
      expose: 'tools',
      tools: createCatalog([]),
      ...options,
    });
    const run = () =>
      createAgent({ model: scriptedModel(steps), tools: [], middleware: [middleware] }).invoke(
        ask('files'),
      );
    await run();
    const described = first.reads();
    expect(described).toBeGreaterThan(0);
    const result = await run();
    expect(first.reads()).toBe(described);
    expect(JSON.parse(toolMessages(result)[1]!.text).results[0].name).toBe('drive_list');

    const replaced = driveTool('bob', []);
    current = replaced.tool;
    await run();
    expect(replaced.reads()).toBe(described);
    expect(first.reads()).toBe(described);
  });

  it('skips and reports a second resolved tool of the same name', async () => {
    const errors: unknown[] = [];
    const { agent } = buildAgent(
      [
        { calls: [{ name: 'search_tools', args: { query: 'cloud drive files' } }] },
        { answer: 'ok' },
      ],
      {
        resolveTools: () => [driveTool('alice', []).tool, driveTool('bob', []).tool],
        onError: (event) => errors.push(event),
      },
    );
    const result = await agent.invoke(ask('files'));
    expect(JSON.parse(toolMessages(result)[0]!.text).results[0].name).toBe('drive_list');
    expect(errors).toContainEqual(expect.objectContaining({ operation: 'resolvedTools' }));
  });
});
