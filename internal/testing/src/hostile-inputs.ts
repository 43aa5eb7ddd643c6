/**
 * Hostile values for the table-driven hostile-input suites of every package, built once per process.
 */

/** One mebibyte of text, in words (a query or description a model or a server could send). */
export const ONE_MB = 'weather forecast '.repeat(Math.ceil(2 ** 20 / 17)).slice(0, 2 ** 20);
/** Ten mebibytes of text. */
export const TEN_MB = ONE_MB.repeat(10);
/** Text that is not well-formed UTF-16: lone surrogates on both sides of a word. */
export const LONE_SURROGATES = '\uD800weather\uDFFF \uDC00';
export const ONLY_PUNCTUATION = '!!! ??? ... ,,, ;;; --- ((( )))';
export const ONLY_EMOJI = '🧰🔥🚀 👩‍💻 🏳️‍🌈';
/** A catastrophic-backtracking pattern, were it ever used as a regular expression. */
export const REGEX_FRAGMENT = '(a+)+$ .* [^\\]] (?<x>\\k<x>) \\';
export const SQL_FRAGMENT = '\'; DROP TABLE tools; -- " OR 1=1 /*';
/** Names that are properties of every plain object. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];
/** 100,000 tool names. */
export const MANY_NAMES = Array.from({ length: 100_000 }, (_, index) => `tool_${index}`);

/** An input schema that contains itself. */
export function cyclicSchema(): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: 'object', description: 'cyclic' };
  schema.properties = { self: schema, items: { type: 'array', items: schema } };
  return schema;
}

/** An input schema nested `depth` levels deep. */
export function deepSchema(depth = 10_000): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string', description: 'the bottom' };
  for (let level = 0; level < depth; level++)
    schema = { type: 'object', properties: { [`level_${level}`]: schema } };
  return schema;
}

/** JSON text whose keys are prototype names, parsed as a JSON parser would. */
export function prototypeKeyedJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(
    `{"__proto__": ${JSON.stringify(value)}, "constructor": ${JSON.stringify(value)}, "hasOwnProperty": 1}`,
  ) as Record<string, unknown>;
}
