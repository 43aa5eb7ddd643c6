export interface JsonSchema {
  [key: string]: unknown;
}

export interface ExampleTool {
  id: string;
  description: string;
  inputSchema: JsonSchema;
  run: (input: Record<string, unknown>) => unknown;
}

export type Properties = Record<string, JsonSchema>;
export type ToolInput = Record<string, unknown>;

/** A string property. */
export const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  description,
  ...extra,
});

/** An integer property with optional inclusive bounds. */
export const int = (description: string, min?: number, max?: number): JsonSchema => {
  const schema: JsonSchema = { type: 'integer', description };
  if (min !== undefined) schema.minimum = min;
  if (max !== undefined) schema.maximum = max;
  return schema;
};

/** A floating-point number property with optional inclusive bounds. */
export const num = (description: string, min?: number, max?: number): JsonSchema => {
  const schema: JsonSchema = { type: 'number', description };
  if (min !== undefined) schema.minimum = min;
  if (max !== undefined) schema.maximum = max;
  return schema;
};

/** A boolean property. */
export const bool = (description: string): JsonSchema => ({ type: 'boolean', description });

/** An array property whose items follow `items`. */
export const arr = (items: JsonSchema, description: string): JsonSchema => ({
  type: 'array',
  items,
  description,
});

/** A string property restricted to a fixed set of values. */
export const enumOf = (values: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  enum: [...values],
  description,
});

/** An object schema; also used for every tool's top-level `inputSchema`. */
export const obj = (
  properties: Properties,
  required: readonly string[] = [],
  description?: string,
): JsonSchema => {
  const schema: JsonSchema = { type: 'object', properties, required: [...required] };
  if (description !== undefined) schema.description = description;
  return schema;
};

/** Builds a tool whose input schema is an object with the given properties. */
export const tool = (
  id: string,
  description: string,
  properties: Properties,
  required: readonly string[],
  run: (input: ToolInput) => unknown,
): ExampleTool => ({
  id,
  description,
  inputSchema: obj(properties, required),
  run,
});
