/** `${NAME}` or `${NAME:-default}`; anything else between `${` and `}` is refused. */
const REFERENCE = /\$\{([^}]*)\}/g;
const NAME_AND_DEFAULT = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * A config value with `${NAME}` replaced by that environment variable, as other MCP clients'
 * config files allow for `env`, `headers` and `url` (so secrets stay out of the file).
 * `${NAME:-default}` gives the default when the variable is unset or empty.
 * @param value - the value as written
 * @param env - where variables are read
 * @returns the value and what each variable it read held (by name; a default is written in the
 *   file, so it is not among them), or the problem to report (`names the environment variable X,
 *   which is not set`)
 */
export function expandVariables(
  value: string,
  env: NodeJS.ProcessEnv,
): { value: string; variables: Map<string, string> } | { problem: string } {
  let problem: string | undefined;
  const variables = new Map<string, string>();
  const expanded = value.replace(REFERENCE, (reference, inner: string) => {
    const match = NAME_AND_DEFAULT.exec(inner);
    if (!match) {
      problem ??= `${JSON.stringify(reference.slice(0, 80))} must be \${NAME} or \${NAME:-default}, NAME an environment variable (letters, digits, _)`;
      return reference;
    }
    const [, name, fallback] = match as unknown as [string, string, string | undefined];
    // Own values only: a variable named `__proto__` or `constructor` is not Object.prototype's.
    const set = Object.hasOwn(env, name) ? env[name] : undefined;
    if (set !== undefined && (set !== '' || fallback === undefined)) {
      variables.set(name, set);
      return set;
    }
    if (fallback !== undefined) return fallback;
    problem ??= `names the environment variable ${name}, which is not set (set it, or write \${${name}:-default})`;
    return reference;
  });
  return problem === undefined ? { value: expanded, variables } : { problem };
}
