import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { JSONSchema, ToolDescriptor } from 'tool-search-core';
import type { LangChainTool } from './tool-search-options';

/**
 * What a LangChain tool exposes to the index: its name, its description, and its input schema as
 * JSON schema, whether it was declared with zod (v3 or v4), with JSON schema, or by an MCP server
 * through `@langchain/mcp-adapters`. Parameter names and descriptions are searchable that way.
 * @param tool - a `tool(...)`, `DynamicStructuredTool` or MCP tool
 * @example
 * describeTool(getWeather); // { id: 'get_weather', description: '...', inputSchema: { type: 'object', ... } }
 */
export function describeTool(tool: LangChainTool): ToolDescriptor {
  const descriptor: ToolDescriptor = { id: tool.name, description: tool.description ?? '' };
  const inputSchema = schemaOf(tool);
  if (inputSchema) descriptor.inputSchema = inputSchema;
  const keywords = (tool as { metadata?: { keywords?: unknown } }).metadata?.keywords;
  if (Array.isArray(keywords))
    descriptor.keywords = keywords.filter((word): word is string => typeof word === 'string');
  return descriptor;
}

function schemaOf(tool: LangChainTool): JSONSchema | undefined {
  if (tool.schema === undefined || tool.schema === null) return undefined;
  try {
    return toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as JSONSchema;
  } catch {
    // A schema the converter cannot read still leaves the name and description searchable.
    return undefined;
  }
}
