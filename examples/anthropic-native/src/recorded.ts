// The Messages API's responses to the task, written by hand from its API reference, for a run
// without a key: the model searches, calls the tool its first reference names, then answers.
import type Anthropic from '@anthropic-ai/sdk';

function message(content: Anthropic.ContentBlock[]): Anthropic.Message {
  return {
    id: `msg_offline_${content[0]!.type}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_reason: content[0]!.type === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 2100,
      output_tokens: 60,
      cache_creation: null,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1900,
      inference_geo: null,
      output_tokens_details: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    },
  };
}

const RESPONSES = [
  message([
    {
      type: 'tool_use',
      id: 'toolu_search',
      name: 'search_tools',
      input: { query: 'create github issue' },
      caller: { type: 'direct' },
    },
  ]),
  message([
    {
      type: 'tool_use',
      id: 'toolu_issue',
      name: 'github__create_issue',
      input: { text: 'The login page is blank on Safari' },
      caller: { type: 'direct' },
    },
  ]),
  message([{ type: 'text', text: 'I opened the GitHub issue.', citations: null }]),
];

/** A `fetch` that answers each Messages API request with the next recorded response. */
export function recordedFetch(): typeof globalThis.fetch {
  let next = 0;
  return (async () =>
    new Response(JSON.stringify(RESPONSES[Math.min(next++, RESPONSES.length - 1)]), {
      headers: { 'content-type': 'application/json' },
    })) as typeof globalThis.fetch;
}
