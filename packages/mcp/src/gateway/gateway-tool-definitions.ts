import type { Tool } from '@modelcontextprotocol/server';
import type { MetaTool } from 'tool-search-core';
import { z } from 'zod';

/** What `search_tools` returns as `structuredContent`, declared so clients can rely on it. */
const SEARCH_TOOLS_OUTPUT_SCHEMA: Tool['outputSchema'] = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          score: { type: 'number' },
        },
        required: ['name', 'description', 'score'],
      },
    },
    notSearchable: {
      type: 'array',
      items: { type: 'string' },
      description: 'Servers whose tools were not searched (still starting, or failed to start)',
    },
  },
  required: ['results'],
};

/** Sessions build their meta-tools afresh; their definitions are the same, so they are converted once. */
const definitions = new Map<string, Tool>();

/**
 * A core meta-tool as an MCP tool definition: its zod input schema as JSON Schema (without the
 * `$schema` line, which costs tokens on every request and tells clients nothing).
 */
export function toMcpDefinition(metaTool: MetaTool): Tool {
  const key = `${metaTool.name}\u0000${metaTool.description}`;
  let definition = definitions.get(key);
  if (!definition) {
    const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(metaTool.inputSchema, {
      io: 'input',
    }) as Record<string, unknown>;
    definition = {
      name: metaTool.name,
      description: metaTool.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      ...(metaTool.name === 'search_tools' && { outputSchema: SEARCH_TOOLS_OUTPUT_SCHEMA }),
    };
    definitions.set(key, definition);
  }
  return definition;
}
