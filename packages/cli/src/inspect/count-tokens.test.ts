import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { countJsonTokens, metaToolDefinitions, toFunctionDefinition } from './count-tokens';

describe('metaToolDefinitions', () => {
  it('gives search_tools and load_tool by default, as the model sees them', () => {
    const definitions = metaToolDefinitions();
    expect(definitions.map((definition) => definition.function.name)).toEqual([
      'search_tools',
      'load_tool',
    ]);
    const search = definitions[0]!.function;
    expect(search.description).toMatch(/^Search the tool catalog/);
    expect(search.parameters).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
    });
    expect(search.parameters).not.toHaveProperty('$schema');
  });

  it('follows autoLoad and unloadTool', () => {
    expect(
      metaToolDefinitions({ autoLoad: true }).map((definition) => definition.function.name),
    ).toEqual(['search_tools']);
    expect(
      metaToolDefinitions({ unloadTool: true }).map((definition) => definition.function.name),
    ).toContain('unload_tool');
  });
});

describe('countJsonTokens', () => {
  it('counts o200k_base tokens of the JSON text', () => {
    const definition = toFunctionDefinition({ id: 'echo', description: 'Echo a message' });
    expect(definition).toEqual({
      type: 'function',
      function: {
        name: 'echo',
        description: 'Echo a message',
        parameters: { type: 'object', properties: {} },
      },
    });
    expect(countJsonTokens([definition])).toBe(countTokens(JSON.stringify([definition])));
    expect(countJsonTokens('hello')).toBe(countTokens('"hello"'));
  });
});
