import { asSchema, type ToolSet } from 'ai';
import type { JSONSchema, ToolDescriptor } from 'tool-search-core';

/** Any tool of a tool set (a `tool()`, a `dynamicTool()`, an MCP or provider tool). */
export type AiTool = ToolSet[string];

/**
 * Describes an AI SDK tool for the index: its key is the id the model loads it by, and its input
 * schema (zod, `jsonSchema()`, `dynamicTool`, MCP) is read as JSON Schema so parameter names and
 * descriptions are searchable.
 * @param tool - an AI SDK tool
 * @param key - the tool's key in the tool set
 */
export function describeAiTool(tool: AiTool, key: string): ToolDescriptor {
  // ai 7 lets a description be a function of the tool's context; only a fixed text can be indexed.
  const description = typeof tool.description === 'string' ? tool.description : undefined;
  const inputSchema = jsonSchemaOf(tool.inputSchema);
  return {
    id: key,
    ...(description !== undefined && { description }),
    ...(inputSchema !== undefined && { inputSchema }),
  };
}

function jsonSchemaOf(schema: unknown): JSONSchema | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  try {
    const json: unknown = asSchema(schema as Parameters<typeof asSchema>[0]).jsonSchema;
    // A lazy schema may resolve asynchronously; the index is built synchronously, so it is skipped.
    return json !== null && typeof json === 'object' && !(json instanceof Promise)
      ? (json as JSONSchema)
      : undefined;
  } catch {
    return undefined;
  }
}
