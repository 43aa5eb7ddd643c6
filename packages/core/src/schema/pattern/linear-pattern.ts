import type { WorkBudget } from '../work-budget';
import {
  type CodePointSet,
  type PatternNode,
  parsePattern,
  UnsupportedPattern,
} from './pattern-syntax';

/**
 * A JSON Schema `pattern` compiled for a matcher that runs in time linear in the text: a
 * Thompson automaton simulated as a Pike VM (Russ Cox, "Regular Expression Matching Can Be
 * Simple And Fast", 2007, and "Regular Expression Matching: the Virtual Machine Approach", 2009).
 * Each character of the text advances every live thread once, and a thread per program
 * instruction at most, so one test costs at most (text length + 1) × (program size) steps,
 * whatever the pattern: `^(a+)+$` takes microseconds where a backtracking engine takes minutes.
 */
export interface LinearPattern {
  /** The instructions of the compiled program (what one character may cost at most). */
  readonly size: number;
  /**
   * Whether the pattern matches somewhere in the text (JSON Schema patterns are not anchored).
   * @param text - the string to search
   * @param budget - spent as the match runs: one step per thread per character
   * @throws {WorkBudgetExhausted} when the budget runs out
   */
  test(text: string, budget: WorkBudget): boolean;
}

/** Marks are generation numbers in an Int32Array: they start over before they would overflow. */
const MAX_GENERATION = 0x7fffffff;

/** Programs above this many instructions are refused: the cost of each character grows with it. */
export const MAX_PROGRAM_SIZE = 10_000;

const CHAR = 0;
const LITERAL = 1;
const SPLIT = 2;
const JUMP = 3;
const ASSERT_START = 4;
const ASSERT_END = 5;
const ASSERT_WORD_BOUNDARY = 6;
const ASSERT_NOT_WORD_BOUNDARY = 7;
const MATCH = 8;

const ASSERT_OPS = {
  start: ASSERT_START,
  end: ASSERT_END,
  'word-boundary': ASSERT_WORD_BOUNDARY,
  'not-word-boundary': ASSERT_NOT_WORD_BOUNDARY,
} as const;

/**
 * Compiles a pattern.
 * @param source - the pattern as the schema gives it
 * @throws {UnsupportedPattern} for a pattern the matcher cannot take (lookaround, backreference,
 *   a program over {@link MAX_PROGRAM_SIZE} instructions, or one the runtime finds invalid)
 */
export function compilePattern(source: string): LinearPattern {
  const tree = parsePattern(source);
  const size = programSize(tree) + 1;
  if (size > MAX_PROGRAM_SIZE) {
    throw new UnsupportedPattern(`it compiles to more than ${MAX_PROGRAM_SIZE} instructions`);
  }
  const program = new ProgramBuilder(size);
  program.emit(tree);
  program.op(MATCH, 0, 0);
  return new PikeMatcher(program, isAnchored(tree));
}

/** The instructions a node compiles to (Infinity past the limit, so nested counts cannot overflow). */
function programSize(node: PatternNode): number {
  switch (node.kind) {
    case 'char':
    case 'literal':
    case 'assert':
      return 1;
    case 'sequence':
      return node.items.reduce((total, item) => total + programSize(item), 0);
    case 'choice':
      return node.items.reduce((total, item) => total + programSize(item) + 2, -2);
    case 'repeat': {
      const item = programSize(node.item);
      const optional = Number.isFinite(node.max) ? (node.max - node.min) * (item + 1) : item + 2;
      const total = item * node.min + optional;
      return total > MAX_PROGRAM_SIZE ? Number.POSITIVE_INFINITY : total;
    }
  }
}

class ProgramBuilder {
  readonly ops: Uint8Array;
  readonly first: Int32Array;
  readonly second: Int32Array;
  readonly sets: CodePointSet[] = [];
  length = 0;

  constructor(size: number) {
    this.ops = new Uint8Array(size);
    this.first = new Int32Array(size);
    this.second = new Int32Array(size);
  }

  op(code: number, first: number, second: number): number {
    const at = this.length;
    this.ops[at] = code;
    this.first[at] = first;
    this.second[at] = second;
    this.length += 1;
    return at;
  }

  emit(node: PatternNode): void {
    switch (node.kind) {
      case 'char':
        this.sets.push(node.set);
        this.op(CHAR, this.sets.length - 1, 0);
        return;
      case 'literal':
        this.op(LITERAL, node.codePoint, 0);
        return;
      case 'assert':
        this.op(ASSERT_OPS[node.test], 0, 0);
        return;
      case 'sequence':
        for (const item of node.items) this.emit(item);
        return;
      case 'choice':
        this.emitChoice(node.items, 0);
        return;
      case 'repeat':
        this.emitRepeat(node.item, node.min, node.max);
        return;
    }
  }

  private emitChoice(items: PatternNode[], from: number): void {
    if (from === items.length - 1) {
      this.emit(items[from]!);
      return;
    }
    const split = this.op(SPLIT, 0, 0);
    this.first[split] = this.length;
    this.emit(items[from]!);
    const jump = this.op(JUMP, 0, 0);
    this.second[split] = this.length;
    this.emitChoice(items, from + 1);
    this.first[jump] = this.length;
  }

  private emitRepeat(item: PatternNode, min: number, max: number): void {
    for (let count = 0; count < min; count++) this.emit(item);
    if (!Number.isFinite(max)) {
      const split = this.op(SPLIT, 0, 0);
      this.first[split] = this.length;
      this.emit(item);
      this.op(JUMP, split, 0);
      this.second[split] = this.length;
      return;
    }
    // Each optional copy may be skipped to the end: SPLIT (copy, end) before each.
    const splits: number[] = [];
    for (let count = min; count < max; count++) {
      const split = this.op(SPLIT, 0, 0);
      this.first[split] = this.length;
      splits.push(split);
      this.emit(item);
    }
    for (const split of splits) this.second[split] = this.length;
  }
}

/** ECMAScript's `\w` (without the `i` flag): what `\b` tests on either side. */
function isWordCodePoint(codePoint: number): boolean {
  return (
    (codePoint >= 0x61 && codePoint <= 0x7a) ||
    (codePoint >= 0x41 && codePoint <= 0x5a) ||
    (codePoint >= 0x30 && codePoint <= 0x39) ||
    codePoint === 0x5f
  );
}

class PikeMatcher implements LinearPattern {
  readonly size: number;
  private readonly ops: Uint8Array;
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  private readonly sets: CodePointSet[];
  private readonly anchored: boolean;
  private readonly current: Int32Array;
  private readonly next: Int32Array;
  private readonly marks: Int32Array;
  private readonly stack: Int32Array;
  /** The generation the next test starts at: marks of earlier tests are all below it. */
  private generation = 0;

  constructor(program: ProgramBuilder, anchored: boolean) {
    this.size = program.length;
    this.ops = program.ops;
    this.first = program.first;
    this.second = program.second;
    this.sets = program.sets;
    this.anchored = anchored;
    const size = program.length;
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    this.marks = new Int32Array(size).fill(-1);
    // Each instruction, once reached, pushes at most two more.
    this.stack = new Int32Array(2 * size + 1);
  }

  test(text: string, budget: WorkBudget): boolean {
    // The buffers are the pattern's, reused by every test: a test runs to its end before another
    // starts (checks are synchronous, and a test never starts another).
    if (this.generation > MAX_GENERATION - 2 * text.length - 4) {
      this.marks.fill(-1);
      this.generation = 0;
    }
    const state = { generation: this.generation };
    try {
      return this.run(text, budget, state);
    } finally {
      // Also when the budget ran out midway: the next test must not meet this one's marks.
      this.generation = state.generation + 1;
    }
  }

  private run(text: string, budget: WorkBudget, state: { generation: number }): boolean {
    let current = this.current;
    let next = this.next;
    const marks = this.marks;
    const stack = this.stack;
    let generation = state.generation;
    let currentLength = 0;
    let previous = -1;
    let position = 0;
    let codePoint = text.length > 0 ? text.codePointAt(0)! : -1;
    for (;;) {
      // A thread starts at every position, as the search is unanchored; a pattern that starts
      // with `^` can only start at the first.
      if (position === 0 || !this.anchored) {
        currentLength = this.follow(
          0,
          current,
          currentLength,
          marks,
          generation,
          stack,
          previous,
          codePoint,
        );
        if (currentLength < 0) return true;
      }
      budget.spend(currentLength + 1);
      if (codePoint < 0 || (currentLength === 0 && this.anchored)) return false;
      const width = codePoint > 0xffff ? 2 : 1;
      const following = position + width < text.length ? text.codePointAt(position + width)! : -1;
      generation += 1;
      state.generation = generation;
      let nextLength = 0;
      for (let index = 0; index < currentLength; index++) {
        const pc = current[index]!;
        const accepts =
          this.ops[pc] === LITERAL
            ? this.first[pc] === codePoint
            : this.sets[this.first[pc]!]!.has(codePoint);
        if (!accepts) continue;
        nextLength = this.follow(
          pc + 1,
          next,
          nextLength,
          marks,
          generation,
          stack,
          codePoint,
          following,
        );
        if (nextLength < 0) return true;
      }
      [current, next] = [next, current];
      currentLength = nextLength;
      previous = codePoint;
      codePoint = following;
      position += width;
    }
  }

  /**
   * Adds to `list` the threads reachable from `start` without reading a character (each waits on
   * one), testing assertions between `previousCodePoint` and `nextCodePoint` (-1: the text's
   * edge). Returns the list's new length, or -1 once MATCH is reached.
   */
  private follow(
    start: number,
    list: Int32Array,
    length: number,
    marks: Int32Array,
    generation: number,
    stack: Int32Array,
    previousCodePoint: number,
    nextCodePoint: number,
  ): number {
    let top = 0;
    stack[top++] = start;
    let listLength = length;
    while (top > 0) {
      const pc = stack[--top]!;
      if (marks[pc] === generation) continue;
      marks[pc] = generation;
      const op = this.ops[pc]!;
      if (op === CHAR || op === LITERAL) list[listLength++] = pc;
      else if (op === JUMP) stack[top++] = this.first[pc]!;
      else if (op === SPLIT) {
        stack[top++] = this.second[pc]!;
        stack[top++] = this.first[pc]!;
      } else if (op === MATCH) return -1;
      else if (assertionHolds(op, previousCodePoint, nextCodePoint)) stack[top++] = pc + 1;
    }
    return listLength;
  }
}

/** Whether every match must begin at the text's start (the pattern opens with `^` on every branch). */
function isAnchored(node: PatternNode): boolean {
  if (node.kind === 'assert') return node.test === 'start';
  if (node.kind === 'sequence') return node.items.length > 0 && isAnchored(node.items[0]!);
  if (node.kind === 'choice') return node.items.every(isAnchored);
  return false;
}

function assertionHolds(op: number, previous: number, next: number): boolean {
  if (op === ASSERT_START) return previous === -1;
  if (op === ASSERT_END) return next === -1;
  const boundary = isWordCodePoint(previous) !== isWordCodePoint(next);
  return op === ASSERT_WORD_BOUNDARY ? boundary : !boundary;
}

export { UnsupportedPattern } from './pattern-syntax';
