import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createToolSearchEngine, type JSONSchema } from 'tool-search-core';
import { z } from 'zod';
import type { CatalogTool } from '../source/catalog';

/** A tool as a model API receives it: OpenAI's function-tool shape, which most providers mirror. */
export interface FunctionDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: JSONSchema };
}

/** The schema a tool without one is sent with: MCP requires an object schema, so clients send this. */
const EMPTY_PARAMETERS: JSONSchema = { type: 'object', properties: {} };

/** A catalog tool as a function definition. */
export function toFunctionDefinition(tool: CatalogTool): FunctionDefinition {
  return {
    type: 'function',
    function: {
      name: tool.id,
      description: tool.description,
      parameters: tool.inputSchema ?? EMPTY_PARAMETERS,
    },
  };
}

/**
 * Prompt tokens of a JSON value (function definitions, a tool list) with the o200k_base encoding
 * of GPT-4o and later, through `gpt-tokenizer`. Providers wrap tool definitions a little
 * differently, so read it as a fair proxy of what a model is sent, not an exact bill.
 * @param value - what is sent, serialized with `JSON.stringify`
 * @example countJsonTokens([toFunctionDefinition(tool)])
 */
export function countJsonTokens(value: unknown): number {
  return countTokens(JSON.stringify(value));
}

/**
 * The meta-tools a model is given instead of the catalog (`search_tools`, `load_tool`, and
 * `unload_tool` when offered), as function definitions: their descriptions and input schemas
 * are the core's, converted to JSON Schema as the MCP gateway converts them.
 * @param options - whether search also loads (no `load_tool`) and whether `unload_tool` is offered
 */
export function metaToolDefinitions(
  options: { autoLoad?: boolean; unloadTool?: boolean } = {},
): FunctionDefinition[] {
  const engine = createToolSearchEngine<never>({
    tools: {},
    describe: (_tool, key) => ({ id: key }),
    search: { autoLoad: options.autoLoad ?? false },
    unloadTool: options.unloadTool ?? false,
  });
  try {
    return engine.createSession({ threadId: 'tool-search-cli' }).metaTools.map((tool) => {
      const { $schema: _dialect, ...parameters } = z.toJSONSchema(tool.inputSchema, {
        io: 'input',
      }) as Record<string, unknown>;
      return {
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters },
      };
    });
  } finally {
    engine.dispose();
  }
}
