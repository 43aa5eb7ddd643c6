import { loadTool } from './load-tool';
import type { MetaToolHost } from './meta-tool-host';
import { CALL_TOOL_NAME } from './meta-tool-names';
import {
  callToolInput,
  type LoadToolOutput,
  loadToolInput,
  type SearchToolsOutput,
  searchToolsInput,
  type UnloadToolOutput,
  unloadToolInput,
} from './meta-tool-schemas';
import {
  CALL_TOOL_DESCRIPTION,
  LOAD_TOOL_DESCRIPTION,
  PROXY_LOAD_TOOL_DESCRIPTION,
  searchToolsDescription,
  UNLOAD_TOOL_DESCRIPTION,
} from './meta-tool-texts';
import type { MetaTool } from './meta-tool-types';
import { searchTools } from './search-tools';
import { unloadTools } from './unload-tool';

/**
 * Builds the meta-tools of a session, always in this order: `search_tools`, `load_tool` (unless
 * autoLoad), `call_tool` (under `expose: 'proxy'`), `unload_tool` (when enabled).
 */
export function createMetaTools<TTool, TContext>(
  session: MetaToolHost<TTool, TContext>,
): MetaTool[] {
  const { autoLoad, unloadTool } = session.settings;
  const { expose } = session;
  const proxy = expose === 'proxy';
  const tools: MetaTool[] = [
    {
      name: 'search_tools',
      description: searchToolsDescription(autoLoad, expose),
      inputSchema: searchToolsInput,
      execute: (input) => searchTools(session, input),
    } satisfies MetaTool<unknown, SearchToolsOutput>,
  ];
  if (!autoLoad) {
    tools.push({
      name: 'load_tool',
      description: proxy ? PROXY_LOAD_TOOL_DESCRIPTION : LOAD_TOOL_DESCRIPTION,
      inputSchema: loadToolInput,
      execute: (input) => loadTool(session, input),
    } satisfies MetaTool<unknown, LoadToolOutput>);
  }
  if (proxy) {
    tools.push({
      name: CALL_TOOL_NAME,
      description: CALL_TOOL_DESCRIPTION,
      inputSchema: callToolInput,
      execute: async (input, callOptions) => {
        const outcome = await session.callTool(input, callOptions);
        return outcome.status === 'ran' ? outcome.result : outcome.output;
      },
    } satisfies MetaTool<unknown, unknown>);
  }
  if (unloadTool) {
    tools.push({
      name: 'unload_tool',
      description: UNLOAD_TOOL_DESCRIPTION,
      inputSchema: unloadToolInput,
      execute: (input) => unloadTools(session, input),
    } satisfies MetaTool<unknown, UnloadToolOutput>);
  }
  return tools;
}
