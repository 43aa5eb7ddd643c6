/**
 * Whether a tool name matches a glob where `*` stands for any run of characters (none included)
 * and every other character stands for itself, case-sensitively.
 * @example matchesGlob('create_*', 'create_issue') // true
 */
export function matchesGlob(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!name.startsWith(first) || name.length < first.length + last.length) return false;
  if (!name.endsWith(last)) return false;
  let position = first.length;
  const end = name.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, position);
    if (found === -1 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}

/**
 * Whether an upstream tool passes its server's `allowTools` / `denyTools` globs: allowed when no
 * `allowTools` is given or one matches, and no `denyTools` glob matches (deny wins).
 */
export function isToolAllowed(
  rules: { allowTools?: readonly string[] | undefined; denyTools?: readonly string[] | undefined },
  toolName: string,
): boolean {
  if (rules.denyTools?.some((pattern) => matchesGlob(pattern, toolName))) return false;
  if (rules.allowTools === undefined) return true;
  return rules.allowTools.some((pattern) => matchesGlob(pattern, toolName));
}
