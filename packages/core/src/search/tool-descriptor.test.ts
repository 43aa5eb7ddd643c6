import { describe, expect, it } from 'vitest';
import { extractSchemaText } from './tool-descriptor';

describe('extractSchemaText', () => {
  it('collects names and descriptions of nested objects, arrays, unions and enums', () => {
    const text = extractSchemaText({
      type: 'object',
      description: 'root text is the tool description',
      properties: {
        city: { type: 'string', description: 'City name' },
        filters: {
          type: 'array',
          items: { type: 'object', properties: { unit: { enum: ['celsius', 'fahrenheit'] } } },
        },
        target: { anyOf: [{ type: 'object', properties: { zip: { title: 'Postal code' } } }] },
      },
    });
    expect(text.names).toEqual(['city', 'filters', 'unit', 'target', 'zip']);
    expect(text.descriptions).toEqual(['City name', 'celsius', 'fahrenheit', 'Postal code']);
  });

  it('stays bounded on cyclic schemas with many self-references', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    const properties = node.properties as Record<string, unknown>;
    for (let n = 0; n < 20; n++) properties[`p${n}`] = node;
    // 20 references per level, 8 levels deep: without the budgets this walk would never end.
    const text = extractSchemaText(node);
    expect(text.names.length).toBeGreaterThan(0);
    expect(text.names.length).toBeLessThanOrEqual(2_000);
  });

  it('yields nothing for non-objects', () => {
    expect(extractSchemaText('nope')).toEqual({ names: [], descriptions: [] });
    expect(extractSchemaText(null)).toEqual({ names: [], descriptions: [] });
  });
});
