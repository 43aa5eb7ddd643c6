import type { WorkBudget } from './work-budget';

/**
 * JSON values as the check sees them: which keys an object has, equality as JSON Schema defines
 * it (`enum`, `const`, `uniqueItems`), a key that equal values share (so `uniqueItems` is one hash
 * lookup per item, not a comparison of every pair), and a short preview of a value for a message.
 * Every walk is iterative and spends from the budget, so no value is too deep or too large for it.
 */

/** A JSON object as the arguments hold it. */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a walk over values is given: the budget, and each object's keys, listed once per check. */
export interface ValueWalk {
  readonly budget: WorkBudget;
  /** An object's keys (see {@link ownKeys}), listed once per check and then reused. */
  keysOf(object: JsonObject): readonly string[];
}

/**
 * Lists each object's keys once per check. Listing the keys of an object with a very large
 * number of them is the costliest thing the runtime does for it (hundreds of milliseconds at
 * 200,000 keys, far more than looking each up), so a check lists them once and reuses the list.
 */
export class KeyIndex implements ValueWalk {
  readonly budget: WorkBudget;
  private readonly keys = new WeakMap<object, readonly string[]>();

  /** @param budget - the check's budget */
  constructor(budget: WorkBudget) {
    this.budget = budget;
  }

  keysOf(object: JsonObject): readonly string[] {
    let keys = this.keys.get(object);
    if (keys === undefined) {
      // Spent first from what the object's size promises, as listing a huge object's keys is
      // costly itself (and grows faster than the count: the runtime orders them).
      keys = ownKeys(object);
      this.budget.spend(keys.length * (1 + Math.log2(keys.length + 1)));
      this.keys.set(object, keys);
    }
    return keys;
  }
}

/**
 * An object's keys, leaving out those whose value is `undefined`: JSON has no such value, and
 * `JSON.stringify` (what sends the arguments on) drops the key, so the check does too.
 */
export function ownKeys(object: JsonObject): string[] {
  const keys = Object.keys(object);
  return keys.every((key) => object[key] !== undefined)
    ? keys
    : keys.filter((key) => object[key] !== undefined);
}

/** Whether an object has a key with a value (own, not inherited; `undefined` counts as absent). */
export function hasKey(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key) && object[key] !== undefined;
}

/** JSON Schema's type of a value: `null`, `boolean`, `number`, `string`, `array` or `object`. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Whether two JSON values are equal as JSON Schema defines it: numbers by value, strings by code
 * units, arrays item by item, objects by their keys whatever their order.
 */
export function jsonEqual(left: unknown, right: unknown, walk: ValueWalk): boolean {
  const budget = walk.budget;
  const pending: [unknown, unknown][] = [[left, right]];
  while (pending.length > 0) {
    const [a, b] = pending.pop()!;
    budget.spend(COMPARISON_STEPS);
    if (a === b) continue;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return false;
      for (let index = 0; index < a.length; index++) pending.push([a[index], b[index]]);
      continue;
    }
    const aObject = a as JsonObject;
    const bObject = b as JsonObject;
    const keys = walk.keysOf(aObject);
    if (keys.length !== walk.keysOf(bObject).length) return false;
    for (const key of keys) {
      if (!hasKey(bObject, key)) return false;
      pending.push([aObject[key], bObject[key]]);
    }
  }
  return true;
}

/**
 * A string that two JSON values share exactly when they are equal: a type tag and the value,
 * object keys sorted, each string length-prefixed so that no two values run together.
 * Costs the value's size (plus sorting each object's keys), spent from the budget.
 */
export function canonicalKey(value: unknown, walk: ValueWalk): string {
  const budget = walk.budget;
  // A lone primitive needs no framing: composite keys start with `[` or `{`.
  if (typeof value === 'string') {
    budget.spend(KEY_STEPS + value.length / STRING_CHARS_PER_STEP);
    return `s${value}`;
  }
  if (value === null || typeof value !== 'object') {
    budget.spend(KEY_STEPS);
    return `${typeof value}${value}`;
  }
  const parts: string[] = [];
  const pending: unknown[] = [value];
  // A marker on the stack that closes the array or object opened before it.
  const close = {};
  while (pending.length > 0) {
    const item = pending.pop();
    budget.spend(KEY_STEPS);
    if (item === close) parts.push(')');
    else if (item === null) parts.push('n');
    else if (typeof item === 'boolean') parts.push(item ? 't' : 'f');
    else if (typeof item === 'number') parts.push(`d${item};`);
    else if (typeof item === 'string') {
      budget.spend(item.length / STRING_CHARS_PER_STEP);
      parts.push(`s${item.length}:${item}`);
    } else if (Array.isArray(item)) {
      parts.push('[');
      pending.push(close);
      for (let index = item.length - 1; index >= 0; index--) pending.push(item[index]);
    } else {
      const object = item as JsonObject;
      const keys = [...walk.keysOf(object)].sort();
      budget.spend(keys.length * Math.log2(keys.length + 1));
      parts.push('{');
      pending.push(close);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        pending.push(object[key]);
        pending.push(key);
      }
    }
  }
  return parts.join('');
}

/** Characters handled per step in a linear pass over a string (copying, hashing, counting). */
export const STRING_CHARS_PER_STEP = 64;
/** Steps for comparing one pair of nodes (`enum`, `const`): measured at about 60 ns on the development machine. */
const COMPARISON_STEPS = 3;
/** Steps for one node of a `uniqueItems` key, and its lookup: measured at about 200 ns. */
const KEY_STEPS = 8;

/**
 * A short JSON rendering of a value for a message: at most `maxLength` characters, cut with
 * `…`, however large the value (a schema's `const` or `enum` entry, an argument).
 */
export function previewJson(value: unknown, maxLength: number): string {
  let text = '';
  const pending: unknown[] = [value];
  const closeArray = {};
  const closeObject = {};
  while (pending.length > 0 && text.length <= maxLength) {
    const item = pending.pop();
    if (item === closeArray) text += ']';
    else if (item === closeObject) text += '}';
    else if (item === COLON) text += ':';
    else if (item === COMMA) text += ',';
    else if (typeof item === 'string') text += JSON.stringify(item.slice(0, maxLength));
    else if (Array.isArray(item)) {
      text += '[';
      pending.push(closeArray);
      const shown = item.slice(0, maxLength);
      for (let index = shown.length - 1; index >= 0; index--) {
        pending.push(shown[index]);
        if (index > 0) pending.push(COMMA);
      }
    } else if (isJsonObject(item)) {
      text += '{';
      pending.push(closeObject);
      const keys = Object.keys(item).slice(0, maxLength);
      for (let index = keys.length - 1; index >= 0; index--) {
        pending.push(item[keys[index]!], COLON, keys[index]);
        if (index > 0) pending.push(COMMA);
      }
    } else text += String(item);
  }
  return text.length > maxLength || pending.length > 0 ? `${text.slice(0, maxLength - 1)}…` : text;
}

const COLON = {};
const COMMA = {};
