import type { JSONSchema, ToolDescriptor } from 'tool-search-core';
import type { AnyMastraTool } from './tool-search-processor-options';

/**
 * Describes a Mastra tool for the index: its id (the key when it has none), its description and
 * its input schema as JSON Schema, so parameter names and descriptions are searchable too.
 * @param tool - a Mastra tool, or a tool an agent resolved for a request
 * @param key - the key it is listed under
 */
export function describeMastraTool(tool: AnyMastraTool, key: string): ToolDescriptor {
  const fields = tool as unknown as Record<string, unknown>;
  const id = typeof fields.id === 'string' && fields.id !== '' ? fields.id : key;
  const description = typeof fields.description === 'string' ? fields.description : '';
  const inputSchema = toJSONSchema(fields.inputSchema ?? fields.parameters);
  return { id, description, ...(inputSchema !== undefined && { inputSchema }) };
}

/**
 * The JSON Schema of a tool's input, from whichever form the tool holds: a Standard JSON Schema
 * (zod 4, Mastra's wrapped schemas), an AI SDK `Schema`, or plain JSON Schema. Anything else, or
 * a conversion that throws, leaves the tool indexed by id and description alone.
 */
function toJSONSchema(schema: unknown): JSONSchema | undefined {
  if (!isRecord(schema)) return undefined;
  try {
    const standard = schema['~standard'];
    if (isRecord(standard) && isRecord(standard.jsonSchema)) {
      const input = standard.jsonSchema.input;
      if (typeof input === 'function') return asSchema(input({ target: 'draft-07' }));
    }
    if (isRecord(schema.jsonSchema)) return asSchema(schema.jsonSchema);
    if (isRecord(schema.properties) || typeof schema.type === 'string') return asSchema(schema);
  } catch {
    // An unconvertible schema only costs search recall on parameters.
  }
  return undefined;
}

function asSchema(value: unknown): JSONSchema | undefined {
  return isRecord(value) ? (value as JSONSchema) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
