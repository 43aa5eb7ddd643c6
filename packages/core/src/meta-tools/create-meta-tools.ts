import type { ToolSearchSession } from '../engine/tool-search-session';
import type { MetaTool } from '../engine/types';
import { loadTool } from './load-tool';
import {
  type LoadToolOutput,
  loadToolInput,
  type SearchToolsOutput,
  searchToolsInput,
  type UnloadToolOutput,
  unloadToolInput,
} from './meta-tool-schemas';
import {
  LOAD_TOOL_DESCRIPTION,
  searchToolsDescription,
  UNLOAD_TOOL_DESCRIPTION,
} from './meta-tool-texts';
import { searchTools } from './search-tools';
import { unloadTools } from './unload-tool';

/** Builds the meta-tools of a session. */
export function createMetaTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
): MetaTool[] {
  const { autoLoad, unloadTool } = session.engine.options;
  const tools: MetaTool[] = [
    {
      name: 'search_tools',
      description: searchToolsDescription(autoLoad),
      inputSchema: searchToolsInput,
      execute: (input) => searchTools(session, input),
    } satisfies MetaTool<unknown, SearchToolsOutput>,
  ];
  if (!autoLoad) {
    tools.push({
      name: 'load_tool',
      description: LOAD_TOOL_DESCRIPTION,
      inputSchema: loadToolInput,
      execute: (input) => loadTool(session, input),
    } satisfies MetaTool<unknown, LoadToolOutput>);
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
