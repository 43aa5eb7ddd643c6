import type { PinnedFields } from './pinned-definition';

/** The pinned fields besides the name, in the order a diff shows them. */
const FIELDS = ['title', 'description', 'inputSchema', 'annotations'] as const;
/** Characters of a text quoted in a log line. */
const MAX_QUOTED = 80;
/** Schema paths named in a log line; the rest are counted. */
const MAX_PATHS = 5;
/** Lines of unchanged text kept around each change in a diff. */
const CONTEXT = 2;
/** Text lines wrap here, so a change inside a long one-line description shows as one line. */
const WRAP = 72;
/**
 * Past this many line pairs the diff shows the whole of both sides instead of aligning them (the
 * alignment costs time and memory in proportion to the pairs).
 */
const MAX_ALIGNED_PAIRS = 4_000_000;

/**
 * What changed between a pinned definition and a new one, in one line for the log:
 * `description "Echo the arguments" → "Echo the arguments, then…"; inputSchema: properties.token added`.
 * @param before - the pinned definition, or `undefined` for a tool never pinned
 * @param after - the definition the server sends now
 */
export function describeChange(before: PinnedFields | undefined, after: PinnedFields): string {
  if (!before) return `a new tool: ${quote(after.description ?? after.title ?? '')}`;
  const parts: string[] = [];
  for (const field of FIELDS) {
    const old = before[field];
    const now = after[field];
    if (json(old) === json(now)) continue;
    if (typeof old === 'string' || typeof now === 'string') {
      parts.push(`${field} ${quote(textOf(old))} → ${quote(textOf(now))}`);
      continue;
    }
    const paths = changedPaths(old, now);
    const shown = paths.slice(0, MAX_PATHS).join(', ');
    parts.push(
      `${field}: ${shown}${paths.length > MAX_PATHS ? ` and ${paths.length - MAX_PATHS} more` : ''}`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : 'no visible change';
}

/**
 * A readable diff of two definitions, field by field (title, description, input schema,
 * annotations): `- ` lines are the pinned definition's, `+ ` lines the new one's, two-space lines
 * unchanged context; schemas are compared as indented JSON.
 * @param before - the pinned definition, or `undefined` for a tool never pinned
 * @param after - the definition held for approval
 * @returns the lines, one field's header (`description:`) before its changes
 */
export function definitionDiff(before: PinnedFields | undefined, after: PinnedFields): string[] {
  const lines: string[] = [];
  for (const field of FIELDS) {
    const old = before?.[field];
    const now = after[field];
    if (json(old) === json(now)) continue;
    lines.push(`${field}:`);
    for (const line of diffLines(linesOf(old), linesOf(now))) lines.push(`  ${line}`);
  }
  return lines;
}

/**
 * A line diff with {@link CONTEXT} lines of context around each change (`…` between distant
 * changes), aligned by a longest common subsequence.
 */
export function diffLines(before: readonly string[], after: readonly string[]): string[] {
  if (before.length * after.length > MAX_ALIGNED_PAIRS)
    return [...before.map((line) => `- ${line}`), ...after.map((line) => `+ ${line}`)];
  const rows = before.length + 1;
  const columns = after.length + 1;
  // common[i * columns + j]: the longest common subsequence of before[i..] and after[j..].
  const common = new Uint32Array(rows * columns);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * columns + j] =
        before[i] === after[j]
          ? common[(i + 1) * columns + j + 1]! + 1
          : Math.max(common[(i + 1) * columns + j]!, common[i * columns + j + 1]!);
    }
  }
  const script: { mark: ' ' | '-' | '+'; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      script.push({ mark: ' ', line: before[i++]! });
      j++;
    } else if (
      j >= after.length ||
      (i < before.length && common[(i + 1) * columns + j]! >= common[i * columns + j + 1]!)
    ) {
      script.push({ mark: '-', line: before[i++]! });
    } else {
      script.push({ mark: '+', line: after[j++]! });
    }
  }
  const near = script.map((_, position) =>
    script
      .slice(Math.max(0, position - CONTEXT), position + CONTEXT + 1)
      .some((step) => step.mark !== ' '),
  );
  const lines: string[] = [];
  script.forEach((step, position) => {
    if (near[position]) lines.push(`${step.mark} ${step.line}`);
    else if (near[position - 1]) lines.push('…');
  });
  return lines;
}

/** JSON paths whose values differ, each with `added`, `removed` or `changed`. */
function changedPaths(before: unknown, after: unknown): string[] {
  const left = leaves(before);
  const right = leaves(after);
  const paths: string[] = [];
  for (const [path, value] of left) {
    if (!right.has(path)) paths.push(`${path} removed`);
    else if (right.get(path) !== value) paths.push(`${path} changed`);
  }
  for (const path of right.keys()) if (!left.has(path)) paths.push(`${path} added`);
  return paths;
}

/** The leaves of a JSON value by dotted path (`properties.token.type`), each as JSON. */
function leaves(value: unknown, path = '', into = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value))
      leaves(item, path ? `${path}.${key}` : key, into);
  } else {
    into.set(path || '(whole)', json(value) ?? 'undefined');
  }
  return into;
}

function linesOf(value: unknown): string[] {
  if (value === undefined) return [];
  // Keys sorted, as the hash sees them: a server that reorders keys adds no noise to the diff.
  if (typeof value !== 'string') return (JSON.stringify(sorted(value), null, 2) ?? '').split('\n');
  return value.split('\n').flatMap(wrap);
}

/** Wraps a line at spaces, near {@link WRAP} characters. */
function wrap(line: string): string[] {
  const lines: string[] = [];
  let rest = line;
  while (rest.length > WRAP) {
    const space = rest.lastIndexOf(' ', WRAP);
    const cut = space > 0 ? space : WRAP;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut).trimStart();
  }
  lines.push(rest);
  return lines;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    Object.defineProperty(copy, key, {
      value: sorted((value as Record<string, unknown>)[key]),
      enumerable: true,
    });
  return copy;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (json(value) ?? '(none)');
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return JSON.stringify(flat.length > MAX_QUOTED ? `${flat.slice(0, MAX_QUOTED)}…` : flat);
}

function json(value: unknown): string | undefined {
  return JSON.stringify(value);
}
