import type { JSONSchema, ToolDescriptor } from 'tool-search-core';

/** A tool of the catalog being searched, evaluated or inspected. */
export interface CatalogTool {
  /** The name search returns and a model would load: the file's id, or `<server>__<tool>` for a config. */
  id: string;
  /** What the tool does; `''` when it has none. */
  description: string;
  /** The tool's input schema, when it has one. */
  inputSchema?: JSONSchema;
  /** Extra search words, when the file gives them. */
  keywords?: string[];
  /** The MCP server it comes from (its name in `mcpServers`), for MCP sources. */
  server?: string;
  /** The tool's own name on its server, for MCP sources (the id may be prefixed). */
  name?: string;
}

/** A labelled query: a request and the tools that answer it. */
export interface LabelledQuery {
  /** What a model (or user) would search for. */
  query: string;
  /** Ids of the tools a correct answer contains. */
  relevant: string[];
}

/** A catalog read from a source, with what it is called in messages. */
export interface Catalog {
  /** The tools, in source order, ids unique. */
  tools: CatalogTool[];
  /** Names the source in messages: the file, the `--mcp` command or the config file. */
  label: string;
  /**
   * The server name `toExposedName` prefixes ids with when the name rule is checked: the
   * server's for MCP sources; for a file, the file's `name` field or the file's base name.
   * @default 'tools'
   */
  serverName?: string;
}

/** The descriptor `ToolIndex` indexes for a catalog tool (the same fields the benchmark gives it). */
export function toDescriptor(tool: CatalogTool): ToolDescriptor {
  return {
    id: tool.id,
    description: tool.description,
    ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    ...(tool.keywords !== undefined && { keywords: tool.keywords }),
  };
}
