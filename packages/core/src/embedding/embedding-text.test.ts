import { describe, expect, it } from 'vitest';
import { MAX_EMBEDDING_TEXT_LENGTH, toEmbeddingText } from './embedding-text';

describe('toEmbeddingText', () => {
  it('joins the name’s words, the description, parameter names and keywords', () => {
    expect(
      toEmbeddingText({
        id: 'getWeather',
        description: 'Current weather for a city',
        inputSchema: {
          type: 'object',
          description: 'ignored: repeats the tool',
          properties: {
            city_name: { type: 'string', description: 'not embedded' },
            units: { type: 'string' },
            options: { type: 'object', properties: { includeHourly: { type: 'boolean' } } },
          },
        },
        keywords: ['forecast', ' '],
      }),
    ).toBe(
      'get weather: Current weather for a city. Parameters: city name, units, options, include hourly. Keywords: forecast.',
    );
  });

  it('is the name’s words alone for a bare tool', () => {
    expect(toEmbeddingText({ id: 'github.create-issue' })).toBe('github create issue');
    expect(toEmbeddingText({ id: '__' })).toBe('__');
  });

  it('ignores fields of the wrong type', () => {
    expect(
      toEmbeddingText({
        id: 'x_tool',
        description: 42 as unknown as string,
        keywords: 'nope' as unknown as string[],
        inputSchema: 'nope' as unknown as Record<string, unknown>,
      }),
    ).toBe('x tool');
  });

  it('cuts long texts, never inside a surrogate pair', () => {
    const long = toEmbeddingText({ id: 'big', description: 'word '.repeat(2_000) });
    expect(long).toHaveLength(MAX_EMBEDDING_TEXT_LENGTH);
    const prefix = 'big: '.length;
    const emoji = toEmbeddingText({
      id: 'big',
      description: `${'a'.repeat(MAX_EMBEDDING_TEXT_LENGTH - prefix - 1)}🌧️ more`,
    });
    expect(emoji).toHaveLength(MAX_EMBEDDING_TEXT_LENGTH - 1);
    expect(emoji.endsWith('a')).toBe(true);
  });
});
