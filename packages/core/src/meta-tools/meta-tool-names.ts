/** Names reserved for the meta-tools; no catalog tool may use them. */
export const META_TOOL_NAMES = ['search_tools', 'load_tool', 'unload_tool'] as const;

/** The meta-tool that runs loaded tools under `expose: 'proxy'`. */
export const CALL_TOOL_NAME = 'call_tool';

/**
 * Names no catalog tool may use: the meta-tools' and `call_tool`, in either mode, so that
 * switching `expose` never renames a tool.
 */
export const RESERVED_TOOL_NAMES = [...META_TOOL_NAMES, CALL_TOOL_NAME] as const;
