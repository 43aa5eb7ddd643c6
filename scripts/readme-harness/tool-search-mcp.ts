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
 * loaded it with `load_tool`, and called it through the gateway with a result that is not an
 * error (the gateway answers a loaded upstream tool only by forwarding the call).
 */
export function verify(): void {
  const found = calls
    .filter((call) => call.name === 'search_tools')
    .flatMap((call) => structured(call).results ?? [])
    .map((result) => result.name)
    .filter((name) => typeof name === 'string' && name.includes(EXPOSED_NAME_SEPARATOR));
  if (found.length === 0) {
    throw new Error(
      `README harness: search_tools found no upstream tool: ${JSON.stringify(calls.map((call) => call.name))}`,
    );
  }
  const loaded = calls
    .filter((call) => call.name === 'load_tool' && structured(call).success === true)
    .flatMap((call) => structured(call).loaded ?? [structured(call).toolName])
    .filter((name) => found.includes(name));
  if (loaded.length === 0) {
    throw new Error('README harness: load_tool loaded none of the tools search_tools found');
  }
  const forwarded = calls.filter((call) => {
    const name = call.name === CALL_TOOL_NAME ? call.arguments?.name : call.name;
    return loaded.includes(name) && call.result.isError !== true && call.result.content.length > 0;
  });
  if (forwarded.length === 0) {
    throw new Error(
      `README harness: no call of a loaded upstream tool (${loaded.join(', ')}) came back from the upstream`,
    );
  }
}

/** The `structuredContent` of a meta-tool's result, as the gateway answers it. */
function structured(call: RecordedCall): {
  results?: { name?: unknown }[];
  success?: unknown;
  toolName?: unknown;
  loaded?: unknown[];
} {
  const content = call.result.structuredContent;
  return typeof content === 'object' && content !== null ? content : {};
}
