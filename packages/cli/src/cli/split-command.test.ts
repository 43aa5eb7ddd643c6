import { describe, expect, it } from 'vitest';
import { UsageError } from './cli-error';
import { splitCommand } from './split-command';

describe('splitCommand', () => {
  it('splits on whitespace and keeps quoted words whole', () => {
    expect(splitCommand(`npx -y "@scope/server" --root '/my files'  x`)).toEqual([
      'npx',
      '-y',
      '@scope/server',
      '--root',
      '/my files',
      'x',
    ]);
  });

  it('reads escapes as a shell does and expands nothing', () => {
    expect(splitCommand(String.raw`a\ b "c \"d\" \n" 'e\f' $HOME ~`)).toEqual([
      'a b',
      'c "d" \\n',
      'e\\f',
      '$HOME',
      '~',
    ]);
    expect(splitCommand(`"" x`)).toEqual(['', 'x']);
    expect(splitCommand('   ')).toEqual([]);
  });

  it('refuses an unclosed quote and a trailing backslash', () => {
    expect(() => splitCommand(`node "server.js`)).toThrow(UsageError);
    expect(() => splitCommand('node \\')).toThrow(/backslash/);
  });
});
