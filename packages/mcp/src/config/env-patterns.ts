/**
 * What is wrong with a name or `*` glob of `inheritEnv` / `withholdEnv`, or `undefined` when it
 * is usable. Names are matched exactly (case included); `=` and NUL cannot be in a variable's name.
 */
export function envPatternProblem(pattern: string): string | undefined {
  if (pattern === '') return 'must be a variable name or a * glob, got an empty string';
  if (pattern.includes('=') || pattern.includes('\u0000'))
    return `must be a variable name or a * glob, without = or NUL, got ${JSON.stringify(pattern.slice(0, 40))}`;
  return undefined;
}
