/**
 * The Anthropic native row: a custom agent loop on `@anthropic-ai/sdk`'s Messages API with
 * `tool-search-core/anthropic` (as in examples/anthropic-native): every catalog tool sent with
 * `defer_loading: true`, and a client-side search tool answered with `tool_reference` blocks for
 * what the index ranks. The SDK sends each request through the scripted fetch of `cost-native.ts`.
 *
 * The request is tokenized as Anthropic documents it ("Tool use with prompt caching"): deferred
 * tools are not in the prompt's prefix, and a tool found by tool search has its definition
 * appended inline where its `tool_reference` is. So the prompt's tools are the search tool (and
 * pinned tools), and each referenced tool's definition is a block of the message that references
 * it, tokenized as that tool among the tools would be.
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  type AnthropicToolDefinition,
  createAnthropicToolSearch,
} from 'tool-search-core/anthropic';
import {
  anthropicMessage,
  anthropicText,
  anthropicToolUse,
} from 'tool-search-testing/provider-responses';
import {
  createNativeCatalog,
  createScriptedFetch,
  type NativeRowOptions,
  type RequestBody,
} from './cost-native';
import { CatalogResults, SYSTEM_PROMPT } from './cost-recorder';
import type { ContentBlock, ModelRequest, ToolDefinition } from './cost-request';
import { type CostRow, maxTurnSteps } from './cost-row';
import type { ModelAction, ModelView, SeenResult } from './cost-script';

/** The model the requests name (the price list's model); the scripted fetch answers for it. */
const MODEL = 'claude-sonnet-4-5';
/** The Messages API requires `max_tokens`; the scripted answers are far shorter. */
const MAX_TOKENS = 1024;

let threads = 0;

/**
 * The Anthropic native row.
 * @param options - `onRequest`, to see each request body the SDK sends (tests)
 * @example
 * const row = createAnthropicNativeRow({ onRequest: (body) => bodies.push(body) });
 */
export function createAnthropicNativeRow(options: NativeRowOptions = {}): CostRow {
  return {
    key: 'anthropic-native',
    label: 'Anthropic native (@anthropic-ai/sdk, tool-search-core/anthropic)',
    exposure: 'native',
    provider: 'anthropic',
    async prepare(data) {
      const { engine, names, ids } = createNativeCatalog(data);
      const catalogResults = new CatalogResults();
      return {
        nameOf: (id) => names.get(id) ?? id,
        idOf: (name) => ids.get(name),
        async play(conversation, recorder) {
          catalogResults.play(conversation);
          const session = engine.createSession({ threadId: `anthropic-native-${threads++}` });
          const search = await createAnthropicToolSearch(session);
          const respond = (body: RequestBody) => {
            const { request, view } = fromMessagesBody(body);
            return toMessage(recorder.respond(request, view));
          };
          const client = new Anthropic({
            apiKey: 'bench',
            fetch: createScriptedFetch(respond, options),
            maxRetries: 0,
          });
          const messages: Anthropic.MessageParam[] = [];
          const steps = maxTurnSteps(conversation.plan);
          while (!conversation.finished) {
            messages.push({ role: 'user', content: conversation.nextUserMessage() });
            for (let step = 0; step < steps; step++) {
              const message = await client.messages.create({
                model: MODEL,
                max_tokens: MAX_TOKENS,
                system: SYSTEM_PROMPT,
                tools: search.tools,
                messages,
              });
              messages.push({ role: 'assistant', content: message.content });
              if (message.stop_reason !== 'tool_use') break;
              const results: Anthropic.ToolResultBlockParam[] = [];
              for (const block of message.content) {
                if (block.type !== 'tool_use') continue;
                if (search.isSearchCall(block)) {
                  results.push(await search.answer(block));
                } else if (await session.isActive(block.name)) {
                  const output = catalogResults.result(ids.get(block.name) ?? block.name);
                  results.push({
                    type: 'tool_result',
                    tool_use_id: block.id,
                    content: JSON.stringify(output),
                  });
                } else {
                  results.push({
                    type: 'tool_result',
                    tool_use_id: block.id,
                    content: `Unknown tool ${block.name}`,
                    is_error: true,
                  });
                }
              }
              messages.push({ role: 'user', content: results });
            }
          }
        },
        async close() {},
      };
    },
  };
}

/** The scripted move as a Messages API response. */
function toMessage(action: ModelAction): Anthropic.Message {
  return anthropicMessage([
    'text' in action
      ? anthropicText(action.text)
      : anthropicToolUse(action.id, action.toolName, action.input),
  ]);
}

/**
 * The prompt a Messages API request body makes, and what the model sees of it: the tools without
 * `defer_loading`, the system prompt, and the messages with each `tool_reference` expanded to the
 * referenced tool's definition.
 */
export function fromMessagesBody(body: RequestBody): { request: ModelRequest; view: ModelView } {
  const tools = (body.tools ?? []) as AnthropicToolDefinition[];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const callNames = new Map<string, string>();
  const results: SeenResult[] = [];
  const toBlocks = (block: Anthropic.ContentBlockParam): ContentBlock[] => {
    switch (block.type) {
      case 'text':
        return block.text === '' ? [] : [{ type: 'text', text: block.text }];
      case 'tool_use':
        callNames.set(block.id, block.name);
        return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
      case 'tool_result': {
        const toolName = callNames.get(block.tool_use_id) ?? '';
        const parts = typeof block.content === 'string' ? [] : (block.content ?? []);
        const references = parts.flatMap((part) =>
          part.type === 'tool_reference' ? [part.tool_name] : [],
        );
        const text =
          typeof block.content === 'string'
            ? block.content
            : parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        results.push({
          toolName,
          output: references.length > 0 ? { results: references.map((name) => ({ name })) } : text,
        });
        const definitions = references.map((name): ContentBlock => {
          const tool = byName.get(name);
          // The API refuses a reference to a tool the request does not list.
          if (tool === undefined) throw new Error(`tool_reference to an unlisted tool: ${name}`);
          return { type: 'tool_definition', tool: toDefinition(tool) };
        });
        return [
          { type: 'tool_result', toolUseId: block.tool_use_id, content: text },
          ...definitions,
        ];
      }
      default:
        return [];
    }
  };
  const messages = ((body.messages ?? []) as Anthropic.MessageParam[]).map((message) => ({
    role: message.role === 'assistant' ? ('assistant' as const) : ('user' as const),
    content:
      typeof message.content === 'string'
        ? [{ type: 'text' as const, text: message.content }]
        : message.content.flatMap(toBlocks),
  }));
  const prompt = tools.filter((tool) => tool.defer_loading !== true).map(toDefinition);
  return {
    request: {
      tools: prompt,
      system: typeof body.system === 'string' ? body.system : '',
      messages,
    },
    view: { toolNames: tools.map((tool) => tool.name), results },
  };
}

function toDefinition(tool: AnthropicToolDefinition): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.input_schema };
}
