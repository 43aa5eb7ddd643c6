import { type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { ToolDescriptor } from '../search/tool-descriptor';

/** One way the arguments break the tool's input schema, in words the model can act on. */
export interface ArgumentProblem {
  /** Where, as a JSON Pointer into the arguments (`''` is the arguments object itself). */
  path: string;
  /** What was expected there. */
  message: string;
}

/** The verdict on a call's arguments. */
export type ArgumentVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; problems: ArgumentProblem[] }
  /** The schema itself cannot be used (a remote `$ref`, a hostile depth): nothing was checked. */
  | { kind: 'unchecked'; error: unknown };

/** Problems reported to the model at most: the first few say what to fix; more is noise. */
const MAX_PROBLEMS = 5;

/**
 * Keywords whose error only says that something beneath them failed ("Property "a" does not match
 * schema"): dropped whenever the deeper error that explains it is reported too.
 */
const CASCADE_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'dependentSchemas',
  'dependencies',
  'allOf',
  'if',
  'then',
  'else',
  '$ref',
  '$recursiveRef',
  '$dynamicRef',
]);

/**
 * Each tool's validator, made at its first call and kept while its descriptor lives (a catalog's
 * descriptors live as long as the catalog): shared by every engine, keyed by the object.
 */
const validators = new WeakMap<ToolDescriptor, Validator | { error: unknown }>();

/**
 * Checks a tool call's arguments against the tool's JSON Schema, with `@cfworker/json-schema`:
 * a maintained validator of drafts 4, 7, 2019-09 and 2020-12 that interprets the schema instead
 * of compiling it to code, so it runs where `new Function` is refused (edge runtimes, a strict
 * CSP), costs nothing for the many catalog tools that are never called, and a hostile schema
 * cannot smuggle code in. A tool without a schema takes any object.
 * @param descriptor - the tool's descriptor, as its catalog holds it
 * @param args - the model's arguments (an object)
 */
export function checkArguments(
  descriptor: ToolDescriptor,
  args: Record<string, unknown>,
): ArgumentVerdict {
  const schema = descriptor.inputSchema;
  if (schema === undefined) return { kind: 'valid' };
  let validator = validators.get(descriptor);
  if (validator === undefined) {
    try {
      validator = new Validator(schema as Schema, draftOf(schema), false);
    } catch (error) {
      validator = { error };
    }
    validators.set(descriptor, validator);
  }
  if (!(validator instanceof Validator)) return { kind: 'unchecked', error: validator.error };
  let result: ReturnType<Validator['validate']>;
  try {
    result = validator.validate(args);
  } catch (error) {
    // A schema that recurses as deep as the arguments go can exhaust the stack; a `$ref` the
    // validator cannot resolve throws only when it is reached.
    if (error instanceof RangeError) {
      return {
        kind: 'invalid',
        problems: [{ path: '', message: 'The arguments are nested too deeply to be checked.' }],
      };
    }
    return { kind: 'unchecked', error };
  }
  return result.valid
    ? { kind: 'valid' }
    : { kind: 'invalid', problems: problemsOf(result.errors) };
}

/** The draft a schema declares in `$schema`; 2020-12 (what zod and MCP emit) when it says none. */
function draftOf(schema: ToolDescriptor['inputSchema']): SchemaDraft {
  const declared = typeof schema?.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** The validator's errors as problems: the ones that explain, not the ones that cascade. */
function problemsOf(
  errors: readonly { keyword: string; instanceLocation: string; error: string }[],
): ArgumentProblem[] {
  const locations = errors.map((error) => error.instanceLocation);
  const explained = (location: string): boolean =>
    locations.some((other) => other !== location && other.startsWith(`${location}/`));
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (CASCADE_KEYWORDS.has(error.keyword) && explained(error.instanceLocation)) continue;
    const problem = toProblem(error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
    if (problems.length === MAX_PROBLEMS) break;
  }
  return problems;
}

/** Words for a property the schema does not allow, said where the property is. */
const UNEXPECTED_PROPERTY = 'is not a parameter of this tool.';

/** One validator error as a problem: a JSON Pointer and what was expected there. */
function toProblem(error: {
  keyword: string;
  instanceLocation: string;
  error: string;
}): ArgumentProblem {
  const path = error.instanceLocation.replace(/^#/, '');
  if (error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') {
    // Reported at the object; the property's own location is where the model has to look.
    const property = /^Property "(.*)" does not match/.exec(error.error)?.[1];
    if (property !== undefined) {
      const escaped = property.replaceAll('~', '~0').replaceAll('/', '~1');
      return { path: `${path}/${escaped}`, message: UNEXPECTED_PROPERTY };
    }
  }
  // A `false` schema is what additionalProperties applies to each extra property: the same news.
  if (error.keyword === 'false') return { path, message: UNEXPECTED_PROPERTY };
  // The validator calls the value it checks "Instance"; the model reads "the value".
  return { path, message: error.error.replace(/^Instance\b/, 'The value') };
}
