import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadDataSet, MissingDataError, resolveDataFiles } from './data';

describe('MissingDataError', () => {
  it('is thrown for a data file or folder that is not there, and prints as one line naming what to pass', () => {
    expect(() => resolveDataFiles(['/nonexistent/data'])).toThrow(MissingDataError);
    expect(() => loadDataSet('/nonexistent/dev-bfcl.json')).toThrow(MissingDataError);
    let printed = '';
    try {
      resolveDataFiles(['/nonexistent/data']);
    } catch (error) {
      printed = inspect(error);
    }
    expect(printed).not.toContain('\n');
    expect(printed).toMatch(/^bench: no data at \/nonexistent\/data\. .*--data a\.json,b\.json/);
  });
});
