/**
 * What the provider-native rows share: the engine over the catalog (tools named as the providers
 * accept them), and the `fetch` each official SDK is given, which records the HTTP request the
 * SDK really sends and answers it with the scripted model's move in the provider's response shape.
 * No network: the SDK's own request building, serialization and response parsing all run.
 */
import { createToolSearchEngine, type ToolSearchEngine } from 'tool-search-core';
import { providerToolNames } from './cost-names';
import { COST_TOP_K } from './cost-row';
import type { DataSet, DataTool } from './data';

/** A request body as the SDK serialized it. */
export type RequestBody = Record<string, unknown>;

/** Options of a native row, for tests: what to hand each recorded request body. */
export interface NativeRowOptions {
  /** Called with every request body the SDK sends, before it is answered. */
  onRequest?: (body: RequestBody) => void;
}

/** The catalog under provider-safe names, and the engine that ranks it. */
export interface NativeCatalog {
  engine: ToolSearchEngine<DataTool>;
  /** Data id to exposed name, and back. */
  names: ReadonlyMap<string, string>;
  ids: ReadonlyMap<string, string>;
}

/**
 * The engine over a data set's catalog, each tool keyed by its provider-safe name, ranking the
 * same `topK` as every other row.
 * @param data - the data set
 */
export function createNativeCatalog(data: DataSet): NativeCatalog {
  const names = providerToolNames(data.tools);
  const ids = new Map([...names].map(([id, name]) => [name, id]));
  const tools: Record<string, DataTool> = {};
  for (const tool of data.tools) tools[names.get(tool.id)!] = tool;
  const engine = createToolSearchEngine<DataTool>({
    tools,
    describe: (tool, key) => ({
      id: key,
      description: tool.description,
      ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    }),
    search: { topK: COST_TOP_K },
  });
  return { engine, names, ids };
}

/**
 * A `fetch` that parses each request's JSON body, hands it to `options.onRequest`, and answers
 * with `respond(body)` as a 200 JSON response.
 * @param respond - the response body for a request body
 * @param options - the row's options
 */
export function createScriptedFetch(
  respond: (body: RequestBody) => unknown,
  options: NativeRowOptions = {},
): typeof globalThis.fetch {
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const text = await new Request(input, init).text();
    const body = (text === '' ? {} : JSON.parse(text)) as RequestBody;
    options.onRequest?.(body);
    return new Response(JSON.stringify(respond(body)), {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': 'req_bench' },
    });
  };
  return fetch as typeof globalThis.fetch;
}
