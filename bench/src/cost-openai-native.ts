/**
 * The OpenAI native row: a custom agent loop on `openai`'s Responses API with
 * `tool-search-core/openai` (as in examples/openai-native): every catalog tool a `defer_loading`
 * function, and `tool_search` with `execution: 'client'` answered with the definitions of what the
 * index ranks (`tool_search_output`). The data sets have no groups, so the functions are top-level,
 * not in namespaces. The SDK sends each request through the scripted fetch of `cost-native.ts`.
 *
 * The request is tokenized as OpenAI's tool search guide describes it: the model still sees the
 * name and description of each deferred top-level function (of a namespace: its name and
 * description only), so what is deferred is the parameter schema; a tool search's loaded
 * definitions are injected where its output is, at the end of the context.
 */
import OpenAI from 'openai';
import { NATIVE_SEARCH_TOOL_NAME } from 'tool-search-core';
import {
  createOpenAIToolSearch,
  type OpenAIFunctionDefinition,
  type OpenAIToolDefinition,
} from 'tool-search-core/openai';
import {
  type OpenAIResponseBody,
  openaiFunctionCall,
  openaiMessage,
  openaiResponse,
} from 'tool-search-testing/provider-responses';
import {
  createNativeCatalog,
  createScriptedFetch,
  type NativeRowOptions,
  type RequestBody,
} from './cost-native';
import { CatalogResults, SYSTEM_PROMPT } from './cost-recorder';
import type {
  ContentBlock,
  ConversationMessage,
  ModelRequest,
  ToolDefinition,
} from './cost-request';
import { type CostRow, maxTurnSteps } from './cost-row';
import type { ModelAction, ModelView, SeenResult } from './cost-script';

/** The model the requests name (tool search needs gpt-5.4 or later); the fetch answers for it. */
const MODEL = 'gpt-5.4';

let threads = 0;

/**
 * The OpenAI native row.
 * @param options - `onRequest`, to see each request body the SDK sends (tests)
 * @example
 * const row = createOpenAINativeRow({ onRequest: (body) => bodies.push(body) });
 */
export function createOpenAINativeRow(options: NativeRowOptions = {}): CostRow {
  return {
    key: 'openai-native',
    label: 'OpenAI native (openai Responses API, tool-search-core/openai)',
    exposure: 'native',
    provider: 'openai',
    async prepare(data) {
      const { engine, names, ids } = createNativeCatalog(data);
      const catalogResults = new CatalogResults();
      return {
        nameOf: (id) => names.get(id) ?? id,
        idOf: (name) => ids.get(name),
        async play(conversation, recorder) {
          catalogResults.play(conversation);
          const session = engine.createSession({ threadId: `openai-native-${threads++}` });
          const search = await createOpenAIToolSearch(session);
          const respond = (body: RequestBody) => {
            const { request, view } = fromResponsesBody(body);
            return toResponse(recorder.respond(request, view));
          };
          const client = new OpenAI({
            apiKey: 'bench',
            fetch: createScriptedFetch(respond, options),
            maxRetries: 0,
          });
          const input: OpenAI.Responses.ResponseInputItem[] = [];
          const steps = maxTurnSteps(conversation.plan);
          while (!conversation.finished) {
            input.push({ role: 'user', content: conversation.nextUserMessage() });
            for (let step = 0; step < steps; step++) {
              const response = await client.responses.create({
                model: MODEL,
                instructions: SYSTEM_PROMPT,
                input,
                tools: search.tools,
              });
              let acted = false;
              for (const item of response.output) {
                if (search.isSearchCall(item)) {
                  acted = true;
                  input.push(item, await search.answer(item));
                } else if (item.type === 'function_call') {
                  acted = true;
                  const allowed = await session.isActive(item.name);
                  const output = allowed
                    ? JSON.stringify(catalogResults.result(ids.get(item.name) ?? item.name))
                    : `Unknown tool ${item.name}`;
                  input.push(item, { type: 'function_call_output', call_id: item.call_id, output });
                } else if (item.type === 'message') {
                  input.push(item);
                }
              }
              if (!acted) break;
            }
          }
        },
        async close() {},
      };
    },
  };
}

/** The scripted move as a Responses API response. */
function toResponse(action: ModelAction): OpenAIResponseBody {
  if ('text' in action)
    return openaiResponse(`resp_${action.text.length}`, [openaiMessage(action.text)]);
  if (action.toolName === NATIVE_SEARCH_TOOL_NAME) {
    return openaiResponse(`resp_${action.id}`, [
      {
        type: 'tool_search_call',
        id: `ts_${action.id}`,
        call_id: action.id,
        execution: 'client',
        status: 'completed',
        arguments: action.input,
      },
    ]);
  }
  return openaiResponse(`resp_${action.id}`, [
    openaiFunctionCall(action.id, action.toolName, action.input),
  ]);
}

/** An input item as the request body carries it (the fields read here). */
interface InputItem {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  call_id?: string;
  name?: string;
  arguments?: unknown;
  output?: unknown;
  tools?: (OpenAIFunctionDefinition | { type: 'namespace'; tools: OpenAIFunctionDefinition[] })[];
}

/**
 * The prompt a Responses API request body makes, and what the model sees of it: `tool_search`,
 * the deferred functions by name and description, the instructions, and the input items with each
 * `tool_search_output`'s definitions where it stands.
 */
export function fromResponsesBody(body: RequestBody): { request: ModelRequest; view: ModelView } {
  const tools = (body.tools ?? []) as OpenAIToolDefinition[];
  const callNames = new Map<string, string>();
  const results: SeenResult[] = [];
  const messages: ConversationMessage[] = [];
  const add = (role: 'user' | 'assistant', content: ContentBlock[]) => {
    if (content.length > 0) messages.push({ role, content });
  };
  for (const item of (body.input ?? []) as InputItem[]) {
    switch (item.type ?? 'message') {
      case 'message': {
        const text =
          typeof item.content === 'string'
            ? item.content
            : (item.content ?? []).map((part) => part.text ?? '').join('');
        add(
          item.role === 'assistant' ? 'assistant' : 'user',
          text === '' ? [] : [{ type: 'text', text }],
        );
        break;
      }
      case 'function_call':
        callNames.set(item.call_id!, item.name!);
        add('assistant', [
          {
            type: 'tool_use',
            id: item.call_id!,
            name: item.name!,
            input: parseArguments(item.arguments),
          },
        ]);
        break;
      case 'function_call_output': {
        const content = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
        results.push({ toolName: callNames.get(item.call_id!) ?? '', output: content });
        add('user', [{ type: 'tool_result', toolUseId: item.call_id!, content }]);
        break;
      }
      case 'tool_search_call':
        add('assistant', [
          { type: 'tool_use', id: item.call_id!, name: 'tool_search', input: item.arguments },
        ]);
        break;
      case 'tool_search_output': {
        const loaded = (item.tools ?? []).flatMap((tool) =>
          tool.type === 'namespace' ? tool.tools : [tool],
        );
        results.push({
          toolName: NATIVE_SEARCH_TOOL_NAME,
          output: { results: loaded.map((tool) => ({ name: tool.name })) },
        });
        add('user', [
          { type: 'tool_result', toolUseId: item.call_id!, content: '' },
          ...loaded.map(
            (tool): ContentBlock => ({ type: 'tool_definition', tool: toDefinition(tool) }),
          ),
        ]);
        break;
      }
    }
  }
  return {
    request: {
      tools: tools.map(promptTool),
      system: typeof body.instructions === 'string' ? body.instructions : '',
      messages,
    },
    view: { toolNames: tools.map((tool) => ('name' in tool ? tool.name : tool.type)), results },
  };
}

/** What the model sees of a listed tool before any search: a deferred one without its schema. */
function promptTool(tool: OpenAIToolDefinition): ToolDefinition {
  switch (tool.type) {
    case 'tool_search':
      return { name: tool.type, description: tool.description, inputSchema: tool.parameters };
    case 'namespace':
      return { name: tool.name, description: tool.description, inputSchema: undefined };
    case 'function':
      return tool.defer_loading === true
        ? { name: tool.name, description: tool.description, inputSchema: undefined }
        : toDefinition(tool);
  }
}

function toDefinition(tool: OpenAIFunctionDefinition): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.parameters };
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
