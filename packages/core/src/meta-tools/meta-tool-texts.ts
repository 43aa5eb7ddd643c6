import type { ExposeMode } from '../engine/types';

/** The model-facing description of `search_tools`, which says whether search also loads. */
export function searchToolsDescription(autoLoad: boolean, expose: ExposeMode = 'tools'): string {
  if (!autoLoad)
    return 'Find tools for a task you cannot do with the tools you have. Describe the task in a few keywords or give a tool name. Returns matching tool names with descriptions; call load_tool with a name to use it.';
  return expose === 'proxy'
    ? 'Find tools for a task you cannot do with the tools you have. Describe the task in a few keywords or give a tool name. The tools found are loaded at once; the answer gives their input schemas, and call_tool runs them.'
    : 'Find tools for a task you cannot do with the tools you have. Describe the task in a few keywords or give a tool name. The tools found are loaded at once and can be called from your next step.';
}

/** The model-facing description of `load_tool`. */
export const LOAD_TOOL_DESCRIPTION =
  'Load tools found with search_tools so you can call them from your next step. Give one exact name as toolName, or several as toolNames.';

/** The model-facing description of `load_tool` under `expose: 'proxy'`. */
export const PROXY_LOAD_TOOL_DESCRIPTION =
  "Load tools found with search_tools. Returns each tool's description and input schema; run a loaded tool with call_tool. Give one exact name as toolName, or several as toolNames.";

/** The model-facing description of `call_tool`. */
export const CALL_TOOL_DESCRIPTION =
  'Run a tool you loaded: give its exact name and its arguments, an object matching the input schema that load_tool returned for it.';

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
  const load = options.autoLoad
    ? proxy
      ? 'The tools it finds are loaded automatically, and its answer gives their input schemas.'
      : 'The tools it finds are loaded automatically and can be called from your next step.'
    : proxy
      ? "Then call load_tool with the exact names you need; it answers with each tool's input schema."
      : 'Then call load_tool with the exact names you need; loaded tools can be called from your next step.';
  const call = proxy
    ? ' Loaded tools are not added to your tool list: run one with call_tool, giving its exact name and its arguments.'
    : '';
  const unload = options.unloadTool ? ' Use unload_tool for tools you are done with.' : '';
  return `More tools exist than are listed. When you need a capability you do not have, call search_tools with a few keywords. ${load}${call}${unload}`;
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
