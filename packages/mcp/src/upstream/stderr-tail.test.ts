import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail';

describe('StderrTail', () => {
  it('hands on whole lines across chunks and quotes the last ones, noise left out', () => {
    const lines: string[] = [];
    const tail = new StderrTail((line) => lines.push(line));
    tail.push(
      'node:internal/modules/cjs/loader:1228\r\n  throw err;\n  ^\n\nError: Cannot find mod',
    );
    tail.push("ule '/srv/server.js'\n    at Module._resolveFilename (node:internal)\n}\n");
    tail.push('Node.js v22.23.3');
    expect(lines).toEqual([
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/srv/server.js'",
      '    at Module._resolveFilename (node:internal)',
      '}',
    ]);
    expect(tail.summary()).toBe(
      "node:internal/modules/cjs/loader:1228 | throw err; | Error: Cannot find module '/srv/server.js' | Node.js v22.23.3",
    );
    tail.end();
    expect(lines.at(-1)).toBe('Node.js v22.23.3');
  });

  it('keeps a few KB of a stream of any size, and cuts an endless line', () => {
    const tail = new StderrTail();
    for (let line = 0; line < 100_000; line++) tail.push(`progress ${line}\n`);
    tail.push('x'.repeat(5_000_000));
    tail.end();
    const summary = tail.summary()!;
    expect(summary.length).toBeLessThanOrEqual(601);
    expect(summary.endsWith('x'.repeat(100))).toBe(true);
    const short = new StderrTail();
    for (let line = 0; line < 100_000; line++) short.push(`progress ${line}\n`);
    expect(short.summary()).toBe(
      'progress 99995 | progress 99996 | progress 99997 | progress 99998 | progress 99999',
    );
  });

  it('says nothing for a server that wrote nothing, and applies the redaction', () => {
    expect(new StderrTail().summary()).toBeUndefined();
    const tail = new StderrTail();
    tail.push('\n  \n');
    expect(tail.summary()).toBeUndefined();
    tail.push('bad key abc123\n');
    expect(tail.summary((text) => text.replace('abc123', '***'))).toBe('bad key ***');
  });
});
