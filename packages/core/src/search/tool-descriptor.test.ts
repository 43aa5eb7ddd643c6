import { PROPERTY_TEST_TIMEOUT } from 'tool-search-testing/property-runs';
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

  it('reads a node in the same order whatever the order of its keys', () => {
    const text = extractSchemaText({
      properties: {
        list: {
          items: { properties: { inner: { description: 'Inner text' } } },
          enum: ['one'],
          title: 'List title',
          description: 'List text',
        },
      },
    });
    expect(text.names).toEqual(['list', 'inner']);
    expect(text.descriptions).toEqual(['List text', 'List title', 'one', 'Inner text']);
  });

  it('reads every keyword of a node with many other keys', () => {
    const node: Record<string, unknown> = {};
    for (let n = 0; n < 100; n++) node[`x-vendor-${n}`] = n;
    node.description = 'Described after a hundred vendor keys';
    node.items = { properties: { deep: { type: 'string' } } };
    const text = extractSchemaText({ properties: { wide: node } });
    expect(text.names).toEqual(['wide', 'deep']);
    expect(text.descriptions).toEqual(['Described after a hundred vendor keys']);
  });

  it('stops once its text budget is spent, however wide the shared nodes are', {
    timeout: PROPERTY_TEST_TIMEOUT,
  }, () => {
    const properties: Record<string, unknown> = {};
    // Property values that are not schemas cost no node budget: only the text budget ends this.
    for (let n = 0; n < 200_000; n++) properties[`p${n}`] = n;
    const wide = { type: 'object', properties };
    // 5,000 references to one node with 200,000 names: reading every name of every reference
    // (as the walk once did after its budget was spent) took minutes.
    const text = extractSchemaText({ type: 'array', items: new Array(5_000).fill(wide) });
    expect(text.names).toHaveLength(2_000);
    expect(text.names.slice(0, 3)).toEqual(['p0', 'p1', 'p2']);
  });

  it('stays bounded on huge arrays and enums of values that are not text', () => {
    const leaves = { items: new Array(1_000_000).fill(0), enum: new Array(1_000_000).fill(0) };
    const text = extractSchemaText({
      properties: { first: { description: 'kept' } },
      items: new Array(5_000).fill(leaves),
    });
    expect(text).toEqual({ names: ['first'], descriptions: ['kept'] });
  });

  it('yields nothing for non-objects', () => {
    expect(extractSchemaText('nope')).toEqual({ names: [], descriptions: [] });
    expect(extractSchemaText(null)).toEqual({ names: [], descriptions: [] });
  });
});
