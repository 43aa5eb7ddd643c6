import type { z } from 'zod';

/** A value the model sent is echoed back at most this long: enough to see the mistake. */
const MAX_ECHOED_VALUE = 40;

/**
 * The sentence a meta-tool answers malformed input with: which argument was wrong, what it takes,
 * and what it was given, so the model can fix its call instead of guessing.
 * @param toolName - the meta-tool
 * @param expected - each argument's accepted values, in words ("a whole number from 1 to 50")
 * @param error - the input schema's parse error
 * @param input - what the model sent
 */
export function inputProblem(
  toolName: string,
  expected: Readonly<Record<string, string>>,
  error: z.ZodError,
  input: unknown,
): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    const names = Object.keys(expected).map((name) => `"${name}"`);
    return `${toolName} takes an object of arguments (${names.join(', ')}), got ${echoValue(input)}.`;
  }
  const argument = String(error.issues[0]?.path[0] ?? '');
  const expectation = Object.hasOwn(expected, argument) ? expected[argument] : undefined;
  if (expectation === undefined)
    return `${toolName}: ${error.issues[0]?.message ?? 'invalid input'}.`;
  const given = (input as Record<string, unknown>)[argument];
  return `${toolName}: "${argument}" must be ${expectation}, got ${echoValue(given)}.`;
}

/** A value as an error message shows it: JSON, cut when long. */
function echoValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_ECHOED_VALUE ? `${text.slice(0, MAX_ECHOED_VALUE)}…` : text;
}
