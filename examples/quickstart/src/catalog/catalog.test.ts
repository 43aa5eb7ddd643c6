import { describe, expect, it } from 'vitest';
import { catalog, type ExampleTool } from './index';

/** Builds a minimal input from the schema's required properties. */
const sampleInput = (tool: ExampleTool): Record<string, unknown> => {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = (tool.inputSchema.required ?? []) as string[];
  const input: Record<string, unknown> = {};
  for (const key of required) {
    const rawType = properties[key]?.type;
    const type = Array.isArray(rawType) ? rawType[0] : rawType;
    switch (type) {
      case 'number':
      case 'integer':
        input[key] = 1;
        break;
      case 'array':
        input[key] = [];
        break;
      case 'boolean':
        input[key] = true;
        break;
      case 'object':
        input[key] = {};
        break;
      default:
        input[key] = 'x';
    }
  }
  return input;
};

const byId = (id: string): ExampleTool => {
  const found = catalog.find((t) => t.id === id);
  if (!found) throw new Error(`missing tool ${id}`);
  return found;
};

describe('catalog', () => {
  it('contains at least 200 tools', () => {
    expect(catalog.length).toBeGreaterThanOrEqual(200);
  });

  it('gives every tool a unique id', () => {
    const ids = catalog.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every tool a non-empty description', () => {
    for (const t of catalog) expect(t.description.trim(), t.id).not.toBe('');
  });

  it('declares an object input schema for every tool', () => {
    for (const t of catalog) expect(t.inputSchema.type, t.id).toBe('object');
  });

  it('lists only declared properties as required', () => {
    for (const t of catalog) {
      const properties = Object.keys((t.inputSchema.properties ?? {}) as object);
      for (const key of (t.inputSchema.required ?? []) as string[]) {
        expect(properties, `${t.id}.${key}`).toContain(key);
      }
    }
  });

  it('returns a JSON-serialisable result from every run for minimal input', () => {
    for (const t of catalog) {
      const input = sampleInput(t);
      const result = t.run(input);
      expect(result, t.id).toBeDefined();
      expect(JSON.parse(JSON.stringify(result)), t.id).toEqual(result);
    }
  });

  it('returns the same result when run twice with the same input', () => {
    for (const t of catalog) {
      const input = sampleInput(t);
      expect(t.run(input), t.id).toEqual(t.run(input));
    }
  });

  it('includes the tools the example script relies on', () => {
    for (const id of [
      'weather_get_forecast',
      'weather_get_current',
      'slackPostMessage',
      'github_create_issue',
      'calendar.create-event',
    ]) {
      expect(
        catalog.some((t) => t.id === id),
        id,
      ).toBe(true);
    }
  });

  it('derives the forecast deterministically from the city name', () => {
    const forecast = byId('weather_get_forecast');
    const lisbon = forecast.run({ city: 'Lisbon', days: 3 }) as {
      city: string;
      days: { day: number; highC: number; lowC: number; summary: string }[];
    };
    expect(lisbon.city).toBe('Lisbon');
    expect(lisbon.days.map((d) => d.day)).toEqual([1, 2, 3]);
    for (const d of lisbon.days) expect(d.highC).toBeGreaterThan(d.lowC);
    expect(forecast.run({ city: 'Lisbon', days: 3 })).toEqual(lisbon);
    expect(forecast.run({ city: 'Oslo', days: 3 })).not.toEqual(lisbon);
  });

  it('posts Slack messages with a fixed timestamp', () => {
    expect(byId('slackPostMessage').run({ channel: '#general', text: 'hi' })).toEqual({
      ok: true,
      channel: '#general',
      ts: '1700000000.000100',
    });
  });

  it('creates GitHub issue 42 in the given repository', () => {
    expect(byId('github_create_issue').run({ repo: 'octo/app', title: 'Bug' })).toEqual({
      number: 42,
      url: 'https://github.com/octo/app/issues/42',
    });
  });

  it('requires title, start and end to create a calendar event', () => {
    expect(byId('calendar.create-event').inputSchema.required).toEqual(['title', 'start', 'end']);
  });

  it('mixes snake_case, camelCase, dotted and double-underscore ids', () => {
    const ids = catalog.map((t) => t.id);
    expect(ids.some((id) => /^[a-z]+(_[a-z]+)+$/.test(id))).toBe(true);
    expect(ids.some((id) => /^[a-z]+[A-Z]/.test(id))).toBe(true);
    expect(ids.some((id) => id.includes('.') && id.includes('-'))).toBe(true);
    expect(ids.some((id) => id.includes('__'))).toBe(true);
  });
});
