import { UsageError } from './cli-error';

/**
 * Splits a command line as a POSIX shell would split words: whitespace separates, single quotes
 * keep everything literally, double quotes keep spaces (a backslash escapes `"`, `\`, `$` and
 * `` ` `` inside them), and a backslash outside quotes escapes the next character. Nothing is
 * expanded: no variables, globs or `~`.
 * @param line - e.g. `npx -y "@scope/server" --root '/my files'`
 * @returns the words, e.g. `['npx', '-y', '@scope/server', '--root', '/my files']`
 * @throws {UsageError} on an unclosed quote or a trailing backslash
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let position = 0; position < line.length; position++) {
    const char = line[position]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && '"\\$`'.includes(line[position + 1] ?? ''))
        word += line[++position];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (position + 1 >= line.length)
        throw new UsageError(`--mcp ends with a lone backslash: ${line}`);
      word += line[++position];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw new UsageError(`--mcp has an unclosed ${quote} quote: ${line}`);
  if (inWord) words.push(word);
  return words;
}
