// Scripted provider endpoints for the READMEs' provider-native snippets: a `fetch` that answers
// the Messages API or the Responses API as agent-script.ts's model would act (search for the task,
// call the first tool the search loaded, answer with its result), reading only the request it is
// sent, in the shapes the providers' API references document. It records every request, so
// `verifyNative` can check what the SDK really sent.
import { TASK } from './agent-script.ts';

/** A request as the SDK sent it. */
export interface NativeRequest {
  url: string;
  body: Record<string, unknown>;
}

type Item = Record<string, unknown>;

/** A `fetch` for one provider, and the requests it answered. */
export function createNativeFetch(provider: 'anthropic' | 'openai'): {
  fetch: typeof globalThis.fetch;
  requests: NativeRequest[];
} {
  const requests: NativeRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = JSON.parse(await request.text()) as Record<string, unknown>;
    requests.push({ url: request.url, body });
    const answer =
      provider === 'anthropic' ? anthropicAnswer(body) : openaiAnswer(body, requests.length);
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

function anthropicAnswer(body: Record<string, unknown>): Item {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1)!.content;
  const result = Array.isArray(last)
    ? (last as Item[]).find((block) => block.type === 'tool_result')
    : undefined;
  const references = Array.isArray(result?.content)
    ? (result.content as Item[]).filter((block) => block.type === 'tool_reference')
    : [];
  const content: Item[] = !result
    ? [toolUse('toolu_search', 'search_tools', { query: TASK.query })]
    : references.length > 0
      ? [toolUse('toolu_call', String(references[0]!.tool_name), TASK.input)]
      : [
          {
            type: 'text',
            text: `Done: ${typeof result.content === 'string' ? result.content : 'nothing'}`,
            citations: null,
          },
        ];
  return {
    id: `msg_${messages.length}`,
    type: 'message',
    role: 'assistant',
    model: String(body.model),
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 1,
      output_tokens: 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

function toolUse(id: string, name: string, input: unknown): Item {
  return { type: 'tool_use', id, name, input, caller: { type: 'direct' } };
}

function openaiAnswer(body: Record<string, unknown>, count: number): Item {
  const last = (body.input as Item[]).at(-1)!;
  let output: Item;
  if (last.type === 'tool_search_output') {
    const [first] = last.tools as Item[];
    const loaded = first?.type === 'namespace' ? (first.tools as Item[])[0] : first;
    output = loaded
      ? {
          type: 'function_call',
          id: `fc_${count}`,
          call_id: 'call_tool',
          name: String(loaded.name),
          arguments: JSON.stringify(TASK.input),
          status: 'completed',
          ...(first?.type === 'namespace' && { namespace: String(first.name) }),
        }
      : message('Search found nothing.');
  } else if (last.type === 'function_call_output') {
    output = message(`Done: ${String(last.output)}`);
  } else {
    output = {
      type: 'tool_search_call',
      id: `ts_${count}`,
      call_id: 'call_search',
      execution: 'client',
      status: 'completed',
      arguments: { query: TASK.query },
    };
  }
  return {
    id: `resp_${count}`,
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    model: String(body.model),
    output: [output],
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    usage: {
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2,
    },
  };
}

function message(text: string): Item {
  return {
    type: 'message',
    id: 'msg_answer',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

/**
 * Throws unless the run went the way native deferred loading promises: every request sent the
 * same tools, the search tool loaded and every catalog tool deferred, a tool the search loaded was
 * called, and the run ended with its result.
 */
export function verifyNative(
  provider: 'anthropic' | 'openai',
  requests: readonly NativeRequest[],
): void {
  const first = requests[0];
  if (!first) throw new Error(`README harness: the snippet never called the ${provider} API`);
  const tools = JSON.stringify(first.body.tools);
  if (requests.some((request) => JSON.stringify(request.body.tools) !== tools)) {
    throw new Error('README harness: the tools sent changed from one request to the next');
  }
  const sent = first.body.tools as Item[];
  const search =
    provider === 'anthropic' ? sent[0]?.name === 'search_tools' : sent[0]?.type === 'tool_search';
  const catalog = sent
    .slice(1)
    .flatMap((tool) => (tool.type === 'namespace' ? (tool.tools as Item[]) : [tool]));
  if (!search || catalog.length === 0 || catalog.some((tool) => tool.defer_loading !== true)) {
    throw new Error(`README harness: expected the search tool, then deferred tools; sent ${tools}`);
  }
  const final = JSON.stringify(requests.at(-1)!.body);
  const called =
    provider === 'anthropic' ? final.includes('toolu_call') : final.includes('call_tool');
  if (!called || requests.length < 3) {
    throw new Error(
      `README harness: no tool the search loaded was called (${requests.length} requests)`,
    );
  }
}
