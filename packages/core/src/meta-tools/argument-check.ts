import { SchemaChecker, type SchemaCheckResult, type SchemaIssue } from '../schema/schema-checker';
import type { ToolDescriptor } from '../search/tool-descriptor';

/** One way the arguments break the tool's input schema, in words the model can act on. */
export interface ArgumentProblem {
  /** Where, as a JSON Pointer into the arguments (`''` is the arguments object itself). */
  path: string;
  /** What was expected there. */
  message: string;
}

/** Why arguments were refused: they break the schema, or could not be checked in bounded work. */
export type ArgumentRefusalReason = 'mismatch' | 'too-costly' | 'too-deep' | 'not-json';

/** The verdict on a call's arguments. */
export type ArgumentVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; problems: ArgumentProblem[]; reason: ArgumentRefusalReason }
  /**
   * Nothing that was checked failed, but a part of the schema cannot be checked (a remote `$ref`,
   * a pattern with a lookahead, a schema too large to read): `error` says which parts.
   */
  | { kind: 'unchecked'; error: unknown };

/** Problems reported to the model at most: the first few say what to fix; more is noise. */
const MAX_PROBLEMS = 5;
/** Characters of one problem's message at most. */
const MAX_MESSAGE_LENGTH = 240;
/** Characters of one path segment (a property name the model sent) at most. */
const MAX_SEGMENT_LENGTH = 60;
/** Characters of one path at most. */
const MAX_PATH_LENGTH = 200;

/** Raised through `onError` when arguments ran with a part of the schema left unchecked. */
export class UncheckedArgumentsError extends Error {
  /** Where in the arguments, and why each part was not checked. */
  readonly parts: ArgumentProblem[];

  /**
   * @param toolId - the tool called
   * @param parts - the parts not checked
   */
  constructor(toolId: string, parts: ArgumentProblem[]) {
    super(
      `Some arguments of "${cut(toolId, MAX_SEGMENT_LENGTH)}" were not checked against its input schema: ${parts
        .map((part) => `at arguments${part.path}: ${part.message}`)
        .join('; ')}`,
    );
    this.name = 'UncheckedArgumentsError';
    this.parts = parts;
  }
}

/**
 * Each tool's checker, made at its first call and kept while its descriptor lives (a catalog's
 * descriptors live as long as the catalog): shared by every engine, keyed by the object.
 */
const checkers = new WeakMap<ToolDescriptor, SchemaChecker>();

/**
 * Checks a tool call's arguments against the tool's JSON Schema, in bounded time: a validator of
 * our own (`schema/`) that interprets the schema instead of compiling it to code (so it runs
 * where `new Function` is refused: edge runtimes, a strict CSP), spends from a fixed budget of
 * steps, and matches patterns and formats in linear time. Arguments too costly or too deep to
 * check are refused (an attacker cannot get a call through unchecked by making the check
 * expensive); a part of the schema that cannot be checked at all (a remote `$ref`, a pattern
 * with a lookahead) is left unchecked alone and reported, while the rest is still checked. A
 * tool without a schema takes any object.
 * @param descriptor - the tool's descriptor, as its catalog holds it
 * @param args - the model's arguments (an object)
 */
export function checkArguments(
  descriptor: ToolDescriptor,
  args: Record<string, unknown>,
): ArgumentVerdict {
  const schema = descriptor.inputSchema;
  if (schema === undefined) return { kind: 'valid' };
  let checker = checkers.get(descriptor);
  if (checker === undefined) {
    checker = new SchemaChecker(schema);
    checkers.set(descriptor, checker);
  }
  return toVerdict(descriptor, checker.check(args));
}

function toVerdict(descriptor: ToolDescriptor, result: SchemaCheckResult): ArgumentVerdict {
  if (result.kind === 'valid') return { kind: 'valid' };
  if (result.kind === 'unchecked') {
    return {
      kind: 'unchecked',
      error: new UncheckedArgumentsError(descriptor.id, toProblems(result.parts)),
    };
  }
  if (result.reason === 'too-costly') {
    return {
      kind: 'invalid',
      reason: result.reason,
      problems: [
        {
          path: '',
          message: `The arguments are too large or too complex to check against this tool's input schema (the check stopped after ${result.steps.toLocaleString('en-US')} steps); send smaller or simpler arguments.`,
        },
      ],
    };
  }
  if (result.reason === 'too-deep') {
    return {
      kind: 'invalid',
      reason: result.reason,
      problems: [{ path: '', message: 'The arguments are nested too deeply to be checked.' }],
    };
  }
  return { kind: 'invalid', reason: result.reason, problems: toProblems(result.problems) };
}

/** The first few distinct issues, each cut to a bounded length. */
function toProblems(issues: readonly SchemaIssue[]): ArgumentProblem[] {
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const problem = {
      path: shortPath(issue.path),
      message: cut(issue.message, MAX_MESSAGE_LENGTH),
    };
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
    if (problems.length === MAX_PROBLEMS) break;
  }
  return problems;
}

/** A JSON Pointer with each long segment cut (a property name is the model's to make long). */
function shortPath(path: string): string {
  if (path.length <= MAX_SEGMENT_LENGTH) return path;
  const segments = path
    .split('/')
    .map((segment) => cut(segment, MAX_SEGMENT_LENGTH))
    .join('/');
  return cut(segments, MAX_PATH_LENGTH);
}

function cut(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
