/**
 * What applying one schema to one value found: valid, invalid (with the first few problems), or
 * unknown (a part could not be checked, and nothing else failed); plus the properties and items
 * it evaluated, which `unevaluatedProperties` and `unevaluatedItems` read. Problems carry paths
 * relative to the value, so a remembered outcome serves the same value wherever it is reached.
 */

/** Whether a schema holds for a value, three-valued: a part that cannot be checked is unknown. */
export type Status = 0 | 1 | 2;
/** The schema holds. */
export const HOLDS: Status = 0;
/** Nothing failed, but a part could not be checked. */
export const UNKNOWN: Status = 1;
/** The schema does not hold. */
export const FAILS: Status = 2;

/** A path into the arguments, from the value checked down: one segment per step. */
export interface PathLink {
  readonly segment: string;
  readonly rest: PathLink | null;
}

/** A problem (or a part left unchecked) at a path relative to the value checked. */
export interface Issue {
  readonly path: PathLink | null;
  readonly message: string;
}

/** One schema applied to one value. */
export interface Outcome {
  readonly status: Status;
  /** The first problems, when invalid. */
  readonly errors: readonly Issue[];
  /** The first parts that could not be checked, and why. */
  readonly unknowns: readonly Issue[];
  /** The properties the schema evaluated (only tracked where `unevaluatedProperties` is used). */
  readonly properties: ReadonlySet<string> | null;
  /** Items `[0, itemsPrefix)` evaluated (`Infinity`: all). */
  readonly itemsPrefix: number;
  /** Other items evaluated (by `contains`). */
  readonly itemSet: ReadonlySet<number> | null;
}

/** Problems one outcome keeps: the answer reports a few, and more would only cost. */
export const MAX_ISSUES = 8;

/** The outcome of a schema that holds and evaluated nothing. */
export const VALID: Outcome = Object.freeze({
  status: HOLDS,
  errors: [],
  unknowns: [],
  properties: null,
  itemsPrefix: 0,
  itemSet: null,
});

/** Collects the outcome of one schema object, keyword by keyword. */
export class OutcomeBuilder {
  status: Status = HOLDS;
  errors: Issue[] | null = null;
  unknowns: Issue[] | null = null;
  properties: Set<string> | null = null;
  itemsPrefix = 0;
  itemSet: Set<number> | null = null;

  /** Records a problem, at the value or at one of its children (`segment`). */
  fail(message: string, segment?: string): void {
    this.status = FAILS;
    this.errors ??= [];
    const errors = this.errors;
    if (errors.length < MAX_ISSUES) {
      errors.push({ path: segment === undefined ? null : { segment, rest: null }, message });
    }
  }

  /** Records a part that could not be checked. */
  unknown(reason: string, segment?: string): void {
    if (this.status === HOLDS) this.status = UNKNOWN;
    this.unknowns ??= [];
    const unknowns = this.unknowns;
    if (unknowns.length < MAX_ISSUES) {
      unknowns.push({
        path: segment === undefined ? null : { segment, rest: null },
        message: reason,
      });
    }
  }

  /**
   * Takes in a subschema's outcome: its status (the keyword holds only if it does), problems and
   * unknown parts, prefixed with `segment` when it was applied to a child.
   */
  add(outcome: Outcome, segment?: string): void {
    if (outcome.status > this.status) this.status = outcome.status;
    if (outcome.errors.length > 0) this.errors = append(this.errors, outcome.errors, segment);
    if (outcome.unknowns.length > 0)
      this.unknowns = append(this.unknowns, outcome.unknowns, segment);
  }

  /** Takes in the annotations of an in-place subschema that holds (`allOf`, `$ref`, ...). */
  addAnnotations(outcome: Outcome): void {
    if (outcome.status === FAILS) return;
    if (outcome.properties !== null) {
      this.properties ??= new Set();
      const properties = this.properties;
      for (const name of outcome.properties) properties.add(name);
    }
    if (outcome.itemsPrefix > this.itemsPrefix) this.itemsPrefix = outcome.itemsPrefix;
    if (outcome.itemSet !== null) {
      this.itemSet ??= new Set();
      const items = this.itemSet;
      for (const index of outcome.itemSet) items.add(index);
    }
  }

  /** The outcome so far. */
  build(): Outcome {
    if (
      this.status === HOLDS &&
      this.properties === null &&
      this.itemsPrefix === 0 &&
      this.itemSet === null &&
      this.unknowns === null
    ) {
      return VALID;
    }
    return {
      status: this.status,
      errors: this.errors ?? [],
      unknowns: this.unknowns ?? [],
      properties: this.properties,
      itemsPrefix: this.itemsPrefix,
      itemSet: this.itemSet,
    };
  }
}

function append(into: Issue[] | null, issues: readonly Issue[], segment?: string): Issue[] {
  const list = into ?? [];
  for (const issue of issues) {
    if (list.length >= MAX_ISSUES) break;
    list.push(
      segment === undefined
        ? issue
        : { path: { segment, rest: issue.path }, message: issue.message },
    );
  }
  return list;
}

/** A relative path as a JSON Pointer (RFC 6901). */
export function toPointer(path: PathLink | null): string {
  let pointer = '';
  for (let link = path; link !== null; link = link.rest) {
    pointer += `/${link.segment.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  return pointer;
}
