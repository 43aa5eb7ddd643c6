/**
 * The LangChain rows: `createAgent` with the `tool-search-langchain` middleware, driven by
 * langchain's own `fakeModel()`. The recording model keeps the tools `createAgent` binds before
 * each call (as a provider integration converts them: `convertToOpenAITool`) and the messages the
 * call receives. One `invoke` per user turn, the conversation's messages passed back each turn.
 */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createAgent } from 'langchain';
import { toolSearchMiddleware } from 'tool-search-langchain';
import { CatalogResults, type ConversationRecorder, SYSTEM_PROMPT } from './cost-recorder';
import type {
  ContentBlock,
  ConversationMessage,
  ModelRequest,
  ToolDefinition,
} from './cost-request';
import {
  type AdapterRowSpec,
  adapterOptions,
  type CostRow,
  exposureOf,
  maxTurnSteps,
} from './cost-row';
import type { ModelView, SeenResult } from './cost-script';
import type { DataTool } from './data';

/** LangGraph's step limit per invoke: a model call and its tool calls are a few steps each. */
const GRAPH_STEPS_PER_MODEL_CALL = 4;

type BindableTools = Parameters<ReturnType<typeof fakeModel>['bindTools']>[0];

function langchainTools(catalog: readonly DataTool[], results: CatalogResults) {
  return catalog.map((data) =>
    tool(async () => JSON.stringify(results.result(data.id)), {
      name: data.id,
      description: data.description,
      schema: (data.inputSchema ?? { type: 'object', properties: {} }) as never,
    }),
  );
}

/** A `fakeModel()` that records each call and answers with the conversation's move. */
function recordingModel(recorder: ConversationRecorder, calls: number) {
  const model = fakeModel();
  let bound: ToolDefinition[] = [];
  const bindTools = model.bindTools.bind(model);
  model.bindTools = (tools: BindableTools) => {
    bound = tools.map(toDefinition);
    return bindTools(tools);
  };
  for (let call = 0; call < calls; call++) {
    model.respond((messages: BaseMessage[]) => {
      const { request, view } = fromMessages(messages, bound);
      const action = recorder.respond(request, view);
      return 'text' in action
        ? new AIMessage({ id: `reply-${call}`, content: action.text })
        : new AIMessage({
            id: `reply-${call}`,
            content: '',
            tool_calls: [
              { id: action.id, name: action.toolName, args: action.input, type: 'tool_call' },
            ],
          });
    });
  }
  return model;
}

function toDefinition(bound: BindableTools[number]): ToolDefinition {
  const converted = convertToOpenAITool(bound as never) as {
    function: { name: string; description?: string; parameters?: unknown };
  };
  return {
    name: converted.function.name,
    description: converted.function.description,
    inputSchema: converted.function.parameters ?? { type: 'object' },
  };
}

function fromMessages(
  messages: readonly BaseMessage[],
  tools: ToolDefinition[],
): { request: ModelRequest; view: ModelView } {
  const system: string[] = [];
  const out: ConversationMessage[] = [];
  const results: SeenResult[] = [];
  for (const message of messages) {
    if (SystemMessage.isInstance(message)) {
      system.push(message.text);
    } else if (AIMessage.isInstance(message)) {
      const content: ContentBlock[] =
        message.text === '' ? [] : [{ type: 'text', text: message.text }];
      for (const call of message.tool_calls ?? []) {
        content.push({ type: 'tool_use', id: call.id ?? '', name: call.name, input: call.args });
      }
      out.push({ role: 'assistant', content });
    } else if (ToolMessage.isInstance(message)) {
      results.push({ toolName: String(message.name), output: message.text });
      out.push({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: message.tool_call_id, content: message.text }],
      });
    } else if (HumanMessage.isInstance(message)) {
      out.push({ role: 'user', content: [{ type: 'text', text: message.text }] });
    }
  }
  return {
    request: { tools, system: system.join('\n\n'), messages: out },
    view: { toolNames: tools.map((definition) => definition.name), results },
  };
}

function langchainRow(spec: AdapterRowSpec): CostRow {
  return {
    key: spec.key,
    label: spec.label,
    exposure: exposureOf(spec.options),
    async prepare(data) {
      const results = new CatalogResults();
      const tools = langchainTools(data.tools, results);
      return {
        async play(conversation, recorder) {
          results.play(conversation);
          const calls = maxTurnSteps(conversation.plan);
          const agent = createAgent({
            model: recordingModel(recorder, calls),
            tools: [],
            systemPrompt: SYSTEM_PROMPT,
            middleware: [toolSearchMiddleware(adapterOptions({ tools }, spec.options))],
          });
          let messages: BaseMessage[] = [];
          while (!conversation.finished) {
            messages = [...messages, new HumanMessage(conversation.nextUserMessage())];
            const result = await agent.invoke(
              { messages },
              { recursionLimit: calls * GRAPH_STEPS_PER_MODEL_CALL },
            );
            messages = result.messages;
          }
        },
        async close() {},
      };
    },
  };
}

/** `tool-search-langchain`'s middleware, one row per spec (`cost-rows.ts`). */
export function langchainRows(specs: readonly AdapterRowSpec[]): CostRow[] {
  return specs.map(langchainRow);
}
