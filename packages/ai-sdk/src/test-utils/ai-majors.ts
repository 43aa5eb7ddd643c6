/**
 * The three AI SDK majors behind one face, for tests that run the same loop on each: their real
 * `generateText` / `streamText` / agent, driven by their own scripted mock model.
 */
import * as ai7 from 'ai';
import * as ai7Test from 'ai/test';
import * as ai5 from 'ai-v5';
import * as ai5Test from 'ai-v5/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';

/** One model response: tool calls, or a text answer. */
export interface ScriptedStep {
  text?: string;
  toolCalls?: { toolName: string; input: Record<string, unknown> }[];
}

/** A scripted model and what it was sent. */
export interface ScriptedModel {
  model: unknown;
  /** The tool names sent to the model at each call, in the order they were sent. */
  sentTools(): string[][];
  /** The tool choice sent to the model at each call. */
  sentToolChoices(): unknown[];
  /** Each call's tool definitions and prompt (system and messages), as the model received them. */
  sentRequests(): { tools: unknown; messages: readonly unknown[] }[];
}

// biome-ignore lint/suspicious/noExplicitAny: each major's functions are driven through one untyped face.
type Loose = (...args: any[]) => any;

export interface AiMajor {
  name: 'ai 5' | 'ai 6' | 'ai 7';
  generateText: Loose;
  streamText: Loose;
  stepCountIs: (count: number) => unknown;
  tool: Loose;
  dynamicTool: Loose;
  /** A JSON-schema helper that validates under this major (ai 5 needs its own `jsonSchema`). */
  jsonSchema: Loose;
  /** `Experimental_Agent` on ai 5, `ToolLoopAgent` on ai 6 and 7. */
  Agent: new (
    settings: Record<string, unknown>,
  ) => { generate: Loose; stream: Loose };
  /** Runs the script: `doGenerate` and `doStream` answer the next step. */
  scriptedModel(script: ScriptedStep[]): ScriptedModel;
  /** The call option that carries the app's context to tools and `prepareStep`. */
  contextOption(context: unknown): Record<string, unknown>;
  /** The messages a chat app passes back on its next call. */
  responseMessages(result: unknown): Promise<unknown[]>;
  /** Whether `prepareStep` receives the call's context (ai 5's does not). */
  prepareStepHasContext: boolean;
}

type Version = 'v2' | 'v3' | 'v4';

function finishOf(version: Version, reason: 'stop' | 'tool-calls') {
  return version === 'v2' ? reason : { unified: reason, raw: reason };
}

function usageOf(version: Version) {
  return version === 'v2'
    ? { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
    : {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      };
}

function contentOf(step: ScriptedStep, callNumber: number) {
  const calls = (step.toolCalls ?? []).map((call, position) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${callNumber}-${position}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  }));
  return step.text !== undefined ? [{ type: 'text' as const, text: step.text }, ...calls] : calls;
}

function createScriptedModel(
  version: Version,
  MockModel: new (
    options: Record<string, unknown>,
  ) => {
    doGenerateCalls: { tools?: { name: string }[]; toolChoice?: unknown; prompt: unknown[] }[];
    doStreamCalls: { tools?: { name: string }[]; toolChoice?: unknown; prompt: unknown[] }[];
  },
  toStream: (parts: unknown[]) => ReadableStream,
  script: ScriptedStep[],
): ScriptedModel {
  let callNumber = 0;
  const next = () => {
    const step = script[Math.min(callNumber, script.length - 1)]!;
    const content = contentOf(step, callNumber++);
    const reason = step.toolCalls?.length ? 'tool-calls' : 'stop';
    return { content, reason } as const;
  };
  const model = new MockModel({
    doGenerate: async () => {
      const { content, reason } = next();
      return {
        content,
        finishReason: finishOf(version, reason),
        usage: usageOf(version),
        warnings: [],
      };
    },
    doStream: async () => {
      const { content, reason } = next();
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        } else {
          parts.push(part);
        }
      }
      parts.push({
        type: 'finish',
        finishReason: finishOf(version, reason),
        usage: usageOf(version),
      });
      return { stream: toStream(parts) };
    },
  });
  return {
    model,
    sentTools: () =>
      [...model.doGenerateCalls, ...model.doStreamCalls].map((call) =>
        (call.tools ?? []).map((tool) => tool.name),
      ),
    sentToolChoices: () =>
      [...model.doGenerateCalls, ...model.doStreamCalls].map((call) => call.toolChoice),
    sentRequests: () =>
      [...model.doGenerateCalls, ...model.doStreamCalls].map((call) => ({
        tools: call.tools ?? [],
        messages: call.prompt,
      })),
  };
}

const loose = <T>(value: T) => value as unknown as Loose;

/** ai 5 and 6: `result.response.messages` holds the whole exchange a chat app passes back. */
const messagesOfResponse: AiMajor['responseMessages'] = async (result) =>
  (
    await (result as { response: PromiseLike<{ messages: unknown[] }> | { messages: unknown[] } })
      .response
  ).messages;

export const AI_MAJORS: AiMajor[] = [
  {
    name: 'ai 5',
    generateText: loose(ai5.generateText),
    streamText: loose(ai5.streamText),
    stepCountIs: ai5.stepCountIs,
    tool: loose(ai5.tool),
    dynamicTool: loose(ai5.dynamicTool),
    jsonSchema: loose(ai5.jsonSchema),
    Agent: ai5.Experimental_Agent as unknown as AiMajor['Agent'],
    scriptedModel: (script) =>
      createScriptedModel(
        'v2',
        ai5Test.MockLanguageModelV2 as never,
        (parts) => ai5Test.convertArrayToReadableStream(parts),
        script,
      ),
    contextOption: (context) => ({ experimental_context: context }),
    responseMessages: messagesOfResponse,
    prepareStepHasContext: false,
  },
  {
    name: 'ai 6',
    generateText: loose(ai6.generateText),
    streamText: loose(ai6.streamText),
    stepCountIs: ai6.stepCountIs,
    tool: loose(ai6.tool),
    dynamicTool: loose(ai6.dynamicTool),
    jsonSchema: loose(ai6.jsonSchema),
    Agent: ai6.ToolLoopAgent as unknown as AiMajor['Agent'],
    scriptedModel: (script) =>
      createScriptedModel(
        'v3',
        ai6Test.MockLanguageModelV3 as never,
        (parts) => ai6Test.convertArrayToReadableStream(parts),
        script,
      ),
    contextOption: (context) => ({ experimental_context: context }),
    responseMessages: messagesOfResponse,
    prepareStepHasContext: true,
  },
  {
    name: 'ai 7',
    generateText: loose(ai7.generateText),
    streamText: loose(ai7.streamText),
    stepCountIs: ai7.stepCountIs,
    tool: loose(ai7.tool),
    dynamicTool: loose(ai7.dynamicTool),
    jsonSchema: loose(ai7.jsonSchema),
    Agent: ai7.ToolLoopAgent as unknown as AiMajor['Agent'],
    scriptedModel: (script) =>
      createScriptedModel(
        'v4',
        ai7Test.MockLanguageModelV4 as never,
        (parts) => ai7Test.convertArrayToReadableStream(parts),
        script,
      ),
    contextOption: (context) => ({ runtimeContext: context }),
    // ai 7's `response.messages` holds the last step only; `responseMessages` the whole exchange.
    responseMessages: async (result) =>
      await (result as { responseMessages: PromiseLike<unknown[]> | unknown[] }).responseMessages,
    prepareStepHasContext: true,
  },
];
