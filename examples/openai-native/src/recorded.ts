// The Responses API's responses to the task, written by hand from its API reference, for a run
// without a key: the model searches (`tool_search_call`, run by the client), calls the function
// the search loaded inside its namespace, then answers.
import type OpenAI from 'openai';

type ResponseBody = Omit<OpenAI.Responses.Response, 'output_text'>;

function response(id: string, output: OpenAI.Responses.ResponseOutputItem[]): ResponseBody {
  return {
    id,
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    model: 'gpt-5.4',
    output,
    access_programs: null,
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
      input_tokens: 1800,
      input_tokens_details: { cached_tokens: 1600, cache_write_tokens: 0 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 1850,
    },
  };
}

const RESPONSES = [
  response('resp_search', [
    {
      type: 'tool_search_call',
      id: 'ts_1',
      call_id: 'call_search',
      execution: 'client',
      status: 'completed',
      arguments: { query: 'create github issue' },
    },
  ]),
  response('resp_call', [
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_issue',
      namespace: 'github',
      name: 'github__create_issue',
      arguments: JSON.stringify({ text: 'The login page is blank on Safari' }),
      status: 'completed',
    },
  ]),
  response('resp_answer', [
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'I opened the GitHub issue.', annotations: [] }],
    },
  ]),
];

/** A `fetch` that answers each Responses API request with the next recorded response. */
export function recordedFetch(): typeof globalThis.fetch {
  let next = 0;
  return (async () =>
    new Response(JSON.stringify(RESPONSES[Math.min(next++, RESPONSES.length - 1)]), {
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;
}
