/**
 * What the `${NAME}` references of each config entry expanded to, kept beside the entry (not in
 * it, so it prints and compares as written), so that whatever logs or reports an error about the
 * entry can write `${NAME}` where a variable's value would appear: errors quote what the file
 * says, never what a variable held. A copy of an entry has none: pass the parsed object along.
 */
const VALUES = new WeakMap<object, ReadonlyMap<string, string>>();

/**
 * Values shorter than this are left in messages: so short a value is no secret (a port, a flag
 * like `1`), and replacing it would garble the numbers and words of every message.
 */
const MIN_REPLACED_LENGTH = 4;

/**
 * Remembers what an entry's variables held.
 * @param entry - the parsed entry (an `mcpServers` value)
 * @param variables - each variable's name and the value it expanded to
 */
export function rememberVariables(entry: object, variables: ReadonlyMap<string, string>): void {
  if (variables.size > 0) VALUES.set(entry, variables);
}

/**
 * A function that writes `${NAME}` in a text wherever the value of one of an entry's variables
 * appears, as it is or as a URL or JSON string would carry it (a server's error page may echo the
 * request it got). An entry without variables gets a function that changes nothing.
 * @param entry - the entry, as `parseGatewayConfig` returned it
 */
export function variableRedactor(entry: object): (text: string) => string {
  return redactorOf(VALUES.get(entry) ?? new Map());
}

/**
 * A function that writes `${NAME}` in a text wherever one of these variables' values appears
 * (see {@link variableRedactor}).
 * @param variables - each variable's name and the value it held
 */
export function redactorOf(variables: ReadonlyMap<string, string>): (text: string) => string {
  if (variables.size === 0) return (text) => text;
  const replacements: [string, string][] = [];
  for (const [name, value] of variables) {
    if (value.length < MIN_REPLACED_LENGTH) continue;
    const reference = `\${${name}}`;
    const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
    for (const form of forms) replacements.push([form, reference]);
  }
  // Longest first: a value that contains another is replaced whole.
  replacements.sort(([left], [right]) => right.length - left.length);
  return (text) => {
    let redacted = text;
    for (const [form, reference] of replacements) redacted = redacted.replaceAll(form, reference);
    return redacted;
  };
}
