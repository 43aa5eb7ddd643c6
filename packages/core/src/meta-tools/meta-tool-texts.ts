import type { ExposeMode } from './meta-tool-types';

/** The model-facing description of `search_tools`, which says whether search also loads. */
export function searchToolsDescription(autoLoad: boolean, expose: ExposeMode = 'tools'): string {
  // Sent with every request: every word here is paid for on every step of every conversation.
  const search = 'Search the tool catalog with a few keywords or a tool name.';
  if (!autoLoad && expose === 'proxy')
    return `${search} Returns matching tools, the best with input schemas to run them with call_tool.`;
  if (!autoLoad) return `${search} Returns matching tools; load one with load_tool to use it.`;
  return expose === 'proxy'
    ? `${search} The tools found are loaded; the answer gives their input schemas for call_tool.`
    : `${search} The tools found are loaded and can be called from your next step.`;
}

/** The model-facing description of `load_tool`. */
export const LOAD_TOOL_DESCRIPTION =
  'Load tools from search results by exact name (toolName, or toolNames for several); call them from your next step.';

/** The model-facing description of `load_tool` under `expose: 'proxy'`. */
export const PROXY_LOAD_TOOL_DESCRIPTION =
  'Get the input schemas of tools from search results, by exact name (toolName, or toolNames for several), to run them with call_tool.';

/** The model-facing description of `call_tool`. */
export const CALL_TOOL_DESCRIPTION =
  'Run a tool from search results by its exact name, with arguments as its input schema describes.';

/** The model-facing description of `unload_tool`. */
export const UNLOAD_TOOL_DESCRIPTION =
  'Unload tools you no longer need, to keep your tool list short. They can be loaded again later.';

/**
 * The system instruction that explains the meta-tools to the model; the same text every step, so
 * the cached prompt prefix stays stable.
 * @param options - whether search loads (`autoLoad`) and whether `unload_tool` is offered
 */
export function toolSearchInstructions(options: {
  autoLoad: boolean;
  unloadTool: boolean;
  /** @default 'tools' */
  expose?: ExposeMode;
}): string {
  const proxy = options.expose === 'proxy';
  const use = options.autoLoad
    ? proxy
      ? 'find them with search_tools (which loads them) and run them with call_tool.'
      : 'find them with search_tools, which loads them for your next step.'
    : proxy
      ? 'find them with search_tools and run them with call_tool (load_tool gives more schemas).'
      : 'find them with search_tools and load them with load_tool for your next step.';
  const unload = options.unloadTool ? ' Use unload_tool for tools you are done with.' : '';
  return `More tools exist than are listed: ${use}${unload}`;
}

/**
 * Search results show descriptions cut to this many characters, as Mastra's processor does:
 * enough to choose, cheap in tokens.
 */
export const MAX_RESULT_DESCRIPTION = 150;

/** Cuts a description for search results, at a word boundary when one is near. */
export function truncateDescription(description: string): string {
  if (description.length <= MAX_RESULT_DESCRIPTION) return description;
  const cut = description.slice(0, MAX_RESULT_DESCRIPTION - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > MAX_RESULT_DESCRIPTION / 2 ? cut.slice(0, lastSpace) : cut}…`;
}

/** Catalog listings cut each description to this many characters. */
const MAX_LISTED_DESCRIPTION = 150;

/**
 * A system-prompt listing of loadable tools, one line each, for small catalogs where the model
 * may load by name without searching.
 * @param tools - ids and descriptions, as `session.listTools()` returns them
 */
export function catalogInstructions(
  tools: readonly { id: string; description?: string | undefined }[],
  options: { autoLoad: boolean },
): string {
  if (tools.length === 0) return '';
  const lines = tools.map(({ id, description = '' }) => {
    const short =
      description.length > MAX_LISTED_DESCRIPTION
        ? `${description.slice(0, MAX_LISTED_DESCRIPTION - 1)}…`
        : description;
    return short ? `- \`${id}\`: ${short}` : `- \`${id}\``;
  });
  const how = options.autoLoad
    ? 'Call search_tools with a tool name to load it.'
    : 'Call load_tool with a toolName or toolNames to use one; search_tools also works.';
  return `These tools can be loaded. ${how}\n\nAvailable tools:\n${lines.join('\n')}`;
}
