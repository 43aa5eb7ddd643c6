// Lets the smoke test run the tool-search-mcp README's main snippet offline and proves it did its
// job. The snippet declares nothing: its upstream is the MCP reference server `everything`, which
// the README's install command names, so `npx` starts the installed copy without a download.
// This module keeps the gateway's manifest cache in a temporary folder instead of ~/.cache, and
// records every tools/call the snippet's MCP client makes, with its result, for verify().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CallToolResult, Client } from '@modelcontextprotocol/client';
import { CALL_TOOL_NAME, EXPOSED_NAME_SEPARATOR } from 'tool-search-mcp';

/** One `client.callTool()` of the snippet. */
interface RecordedCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
  result: CallToolResult;
}

const calls: RecordedCall[] = [];

const cacheHome = mkdtempSync(join(tmpdir(), 'tool-search-mcp-readme-'));
// The gateway's default cache folder is read from XDG_CACHE_HOME when the gateway is built.
process.env.XDG_CACHE_HOME = cacheHome;
process.on('exit', () => rmSync(cacheHome, { recursive: true, force: true }));

const callTool = Client.prototype.callTool;
Client.prototype.callTool = async function (this: Client, params, options) {
  const result = await callTool.call(this, params, options);
  calls.push({ name: params.name, arguments: params.arguments, result });
  return result;
};

/**
 * Runs after the snippet: throws unless its client found an upstream tool with `search_tools`,
 * whose answer carried that tool's definition, and called it through the gateway in its next
 * request (`call_tool`, no `load_tool` in between) with a result that is not an error (the
 * gateway answers an upstream tool only by forwarding the call).
 */
export function verify(): void {
  const searchAt = calls.findIndex((call) => call.name === 'search_tools');
  const search = calls[searchAt];
  const defined = (search === undefined ? [] : (structured(search).tools ?? []))
    .map((tool) => tool.name)
    .filter((name) => typeof name === 'string' && name.includes(EXPOSED_NAME_SEPARATOR));
  if (defined.length === 0) {
    throw new Error(
      `README harness: search_tools answered no upstream tool with its definition: ${JSON.stringify(calls.map((call) => call.name))}`,
    );
  }
  const next = calls[searchAt + 1];
  const name = next?.name === CALL_TOOL_NAME ? next.arguments?.name : next?.name;
  if (
    !next ||
    !defined.includes(name) ||
    next.result.isError === true ||
    next.result.content.length === 0
  ) {
    throw new Error(
      `README harness: the request after the search did not run one of the tools it found (${defined.join(', ')}): ${JSON.stringify(next?.name)}`,
    );
  }
}

/** The `structuredContent` of a meta-tool's result, as the gateway answers it. */
function structured(call: RecordedCall): {
  results?: { name?: unknown }[];
  tools?: { name?: unknown }[];
} {
  const content = call.result.structuredContent;
  return typeof content === 'object' && content !== null ? content : {};
}
