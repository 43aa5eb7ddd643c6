/**
 * What the provider-native paths send under a filter, through the real AI SDK providers: per
 * request, a tool the filter denies is not sent (neither its name nor its description), each
 * caller's tools stay the same step after step while its filter answers hold, and a tool denied
 * after a search found it leaves a conversation the provider still accepts.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { createRecordingFetch } from 'tool-search-testing';
import {
  anthropicMessage,
  anthropicText,
  anthropicToolUse,
  openaiFunctionCall,
  openaiMessage,
  openaiResponse,
  openaiSearchCall,
} from 'tool-search-testing/provider-responses';
import { describe, expect, it } from 'vitest';
import { createAnthropicNativeToolSearch } from '../anthropic';
import { createOpenAINativeToolSearch } from '../openai';
import { createLargeAiCatalog } from '../test-utils/large-ai-catalog';

/** Generous: only a hung test should reach it. */
const HANG_GUARD_MS = 30_000;

type Caller = { team: 'payments' | 'support' };
/** Each team sees its own services only: the filter's answer depends on who asks. */
const byTeam = ({
  toolName,
  requestContext,
}: {
  toolName: string;
  requestContext?: Caller | undefined;
}) =>
  requestContext?.team === 'payments'
    ? /^(stripe|paypal)__/.test(toolName)
    : /^(zendesk|intercom)__/.test(toolName);

type AnthropicBody = {
  tools: { name: string; description?: string }[];
  messages: { role: string; content: unknown }[];
};
type OpenAIBody = { tools: Record<string, unknown>[]; input: Record<string, unknown>[] };

/** The function names of a Responses API tools array, namespaces flattened. */
function functionNames(tools: Record<string, unknown>[]): string[] {
  return tools.flatMap((tool) =>
    tool.type === 'namespace'
      ? (tool.tools as { name: string }[]).map((member) => member.name)
      : typeof tool.name === 'string'
        ? [tool.name]
        : [],
  );
}

describe('the native paths under a filter', { timeout: HANG_GUARD_MS }, () => {
  it('send each Anthropic caller only its allowed tools, the same every step', async () => {
    const { tools } = createLargeAiCatalog();
    const toolSearch = createAnthropicNativeToolSearch<typeof tools, Caller>({
      tools,
      filter: byTeam,
    });
    const sent = async (team: Caller['team'], query: string) => {
      const recording = createRecordingFetch([
        anthropicMessage([anthropicToolUse('toolu_1', 'search_tools', { query })]),
        anthropicMessage([anthropicText('Found it.')]),
      ]);
      await generateText({
        model: createAnthropic({ apiKey: 'sk-ant-test', fetch: recording.fetch })(
          'claude-sonnet-4-5',
        ),
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        toolApproval: toolSearch.toolApproval,
        runtimeContext: { team },
        stopWhen: stepCountIs(3),
        prompt: query,
      });
      return recording.requests.map((request) => request.body as AnthropicBody);
    };
    const payments = await sent('payments', 'refund stripe payment');
    const support = await sent('support', 'update zendesk support ticket');
    expect(payments).toHaveLength(2);
    expect(payments[1]!.tools).toEqual(payments[0]!.tools);
    expect(support[1]!.tools).toEqual(support[0]!.tools);
    const names = payments[0]!.tools.map((tool) => tool.name);
    expect(names).toHaveLength(41);
    expect(names.slice(1).every((name) => /^(stripe|paypal)__/.test(name))).toBe(true);
    expect(
      support[0]!.tools.slice(1).every((tool) => /^(zendesk|intercom)__/.test(tool.name)),
    ).toBe(true);
    for (const body of support) expect(JSON.stringify(body)).not.toMatch(/Stripe|stripe__/);
  });

  it('send each OpenAI caller only its allowed tools, the same every step', async () => {
    const { tools } = createLargeAiCatalog();
    const toolSearch = createOpenAINativeToolSearch<typeof tools, Caller>({
      tools,
      filter: byTeam,
    });
    const sent = async (team: Caller['team'], query: string) => {
      const recording = createRecordingFetch([
        openaiResponse('resp_1', [openaiSearchCall('call_1', query)]),
        openaiResponse('resp_2', [openaiMessage('Found it.')]),
      ]);
      await generateText({
        model: createOpenAI({ apiKey: 'sk-test', fetch: recording.fetch }).responses('gpt-5.4'),
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        toolApproval: toolSearch.toolApproval,
        runtimeContext: { team },
        stopWhen: stepCountIs(3),
        prompt: query,
      });
      return recording.requests.map((request) => request.body as OpenAIBody);
    };
    const payments = await sent('payments', 'refund stripe payment');
    const support = await sent('support', 'update zendesk support ticket');
    expect(payments[1]!.tools).toEqual(payments[0]!.tools);
    expect(support[1]!.tools).toEqual(support[0]!.tools);
    const names = functionNames(payments[0]!.tools);
    expect(names).toHaveLength(40);
    expect(names.every((name) => /^(stripe|paypal)__/.test(name))).toBe(true);
    for (const body of support) expect(JSON.stringify(body)).not.toMatch(/Stripe|stripe__/);
  });

  it('take a reference to a tool denied since it was found out of the Anthropic conversation', async () => {
    const { tools, executions } = createLargeAiCatalog();
    let allowed = true;
    const toolSearch = createAnthropicNativeToolSearch({
      tools,
      filter: ({ toolName }) => allowed || !toolName.startsWith('github__'),
    });
    const first = createRecordingFetch([
      anthropicMessage([
        anthropicToolUse('toolu_1', 'search_tools', { query: 'create github issue' }),
      ]),
      anthropicMessage([anthropicText('Found it.')]),
    ]);
    const found = await generateText({
      model: createAnthropic({ apiKey: 'sk-ant-test', fetch: first.fetch })('claude-sonnet-4-5'),
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      toolApproval: toolSearch.toolApproval,
      stopWhen: stepCountIs(3),
      prompt: 'Open a GitHub issue',
    });
    // The policy changes between the turns: GitHub is off for this caller now.
    allowed = false;
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Open a GitHub issue' },
      ...found.responseMessages,
      { role: 'user', content: 'Go ahead.' },
    ];
    const second = createRecordingFetch([
      anthropicMessage([anthropicToolUse('toolu_2', 'github__create_issue', { note: 'x' })]),
      anthropicMessage([anthropicText('I cannot.')]),
    ]);
    await generateText({
      model: createAnthropic({ apiKey: 'sk-ant-test', fetch: second.fetch })('claude-sonnet-4-5'),
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      toolApproval: toolSearch.toolApproval,
      stopWhen: stepCountIs(3),
      messages,
    });
    const before = first.requests[1]!.body as AnthropicBody;
    expect(JSON.stringify(before.messages)).toContain('"tool_name":"github__create_issue"');
    for (const request of second.requests) {
      const body = request.body as AnthropicBody;
      // No GitHub tool is sent, and no reference to one is left for the API to refuse.
      expect(body.tools.some((tool) => tool.name.startsWith('github__'))).toBe(false);
      expect(JSON.stringify(body.messages)).not.toContain('tool_reference');
      expect(JSON.stringify(body)).not.toContain('in GitHub.');
    }
    const searchResult = JSON.stringify((second.requests[0]!.body as AnthropicBody).messages);
    expect(searchResult).toContain('The tools this search found are not available any more.');
    expect(executions).toEqual({});
  });

  it('send no OpenAI tool denied since it was loaded, and run none', async () => {
    const { tools, executions } = createLargeAiCatalog();
    let allowed = true;
    const toolSearch = createOpenAINativeToolSearch({
      tools,
      filter: ({ toolName }) => allowed || toolName !== 'github__create_issue',
    });
    const first = createRecordingFetch([
      openaiResponse('resp_1', [openaiSearchCall('call_1', 'create github issue')]),
      openaiResponse('resp_2', [openaiMessage('Found it.')]),
    ]);
    const found = await generateText({
      model: createOpenAI({ apiKey: 'sk-test', fetch: first.fetch }).responses('gpt-5.4'),
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      toolApproval: toolSearch.toolApproval,
      stopWhen: stepCountIs(3),
      prompt: 'Open a GitHub issue',
    });
    expect(functionNames((first.requests[1]!.body as OpenAIBody).tools)).toContain(
      'github__create_issue',
    );
    allowed = false;
    const second = createRecordingFetch([
      openaiResponse('resp_3', [
        openaiFunctionCall('call_2', 'github__create_issue', { note: 'x' }),
      ]),
      openaiResponse('resp_4', [openaiMessage('I cannot.')]),
    ]);
    await generateText({
      model: createOpenAI({ apiKey: 'sk-test', fetch: second.fetch }).responses('gpt-5.4'),
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      toolApproval: toolSearch.toolApproval,
      stopWhen: stepCountIs(3),
      messages: [
        { role: 'user', content: 'Open a GitHub issue' },
        ...found.responseMessages,
        { role: 'user', content: 'Go ahead.' },
      ],
    });
    for (const request of second.requests)
      expect(functionNames((request.body as OpenAIBody).tools)).not.toContain(
        'github__create_issue',
      );
    expect(executions).toEqual({});
  });
});
