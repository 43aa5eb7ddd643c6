// A `fetch` for SDK tests: records each HTTP request the SDK really sends and answers with the
// next hand-written response, as the provider's API reference documents it. No network.

/** One request as it left the SDK. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
}

/** A fetch and what it saw. */
export interface RecordingFetch {
  fetch: typeof globalThis.fetch;
  requests: RecordedRequest[];
}

/**
 * Answers the n-th request with `responses[n]` (JSON, status 200); past the last it answers 500,
 * so a loop that asks once too often fails loudly.
 * @param responses - the response bodies, in order
 */
export function createRecordingFetch(responses: readonly unknown[]): RecordingFetch {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const text = await request.text();
    requests.push({
      url: request.url,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    });
    const response = responses[requests.length - 1];
    if (response === undefined) {
      return new Response(JSON.stringify({ error: { message: 'no recorded response left' } }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(JSON.stringify(response), {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}
