/** Hostile conversation results for the context replay: huge, prototype-keyed, malformed. */
import { MANY_NAMES, prototypeKeyedJson, TEN_MB } from 'tool-search-testing/hostile-inputs';
import { describe, expect, it } from 'vitest';
import { deriveLoadedToolNames } from './context-state';

/** Generous: a hang guard on a shared 2-core machine, never a speed gate. */
const SLOW = 60_000;

describe('context replay under hostile conversation results', () => {
  it.each([
    ['a 10 MB JSON text', JSON.stringify({ success: true, loaded: ['a'], note: TEN_MB })],
    ['100,000 loaded names', { success: true, loaded: MANY_NAMES }],
    ['prototype keys', prototypeKeyedJson({ success: true, loaded: ['evil'] })],
    ['a loaded list of non-strings', { success: true, loaded: [1, null, {}, ['x']] }],
    ['text that is not JSON', '{"success": true, "loaded": ["a"'],
  ])(
    'reads %s without throwing',
    (_label, output) => {
      const names = deriveLoadedToolNames([{ toolName: 'load_tool', output }]);
      for (const name of names) expect(typeof name).toBe('string');
      expect(names).not.toContain('evil');
    },
    SLOW,
  );
});
