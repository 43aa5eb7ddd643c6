/** Names reserved for the meta-tools; no catalog tool may use them. */
export const META_TOOL_NAMES = ['search_tools', 'load_tool', 'unload_tool'] as const;
