/**
 * Parses a JSON Schema `pattern` (an ECMAScript regular expression, read with the `u` flag, as
 * JSON Schema validators do) into a tree the linear-time matcher compiles. Only what a finite
 * automaton can match is accepted: lookahead, lookbehind, backreferences and inline modifiers
 * are refused with a reason, and the caller leaves that keyword unchecked. The pattern is first
 * parsed by the runtime's own `RegExp` (which only parses; it never runs here), so this parser
 * sees valid patterns only and agrees with the runtime on what is valid.
 */

/** Whether one code point belongs to a set (a class, an escape such as `\d`, or `.`). */
export interface CodePointSet {
  has(codePoint: number): boolean;
}

/** A node of a parsed pattern. */
export type PatternNode =
  | { kind: 'char'; set: CodePointSet }
  | { kind: 'literal'; codePoint: number }
  | { kind: 'sequence'; items: PatternNode[] }
  | { kind: 'choice'; items: PatternNode[] }
  | { kind: 'repeat'; item: PatternNode; min: number; max: number }
  | { kind: 'assert'; test: 'start' | 'end' | 'word-boundary' | 'not-word-boundary' };

/** A pattern the matcher cannot take, and why. */
export class UnsupportedPattern extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnsupportedPattern';
  }
}

/** Counted repetition above this is refused: RE2's limit, and programs past it grow too large. */
const MAX_REPEAT_COUNT = 1000;

/** Code points of a class's membership cached per set: ASCII, which most arguments are. */
const ASCII_END = 128;

/** What `.` leaves out without the `s` flag: the line terminators of ECMAScript. */
const LINE_TERMINATORS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);

/** Escapes that stand for a set of code points rather than one: handed to the runtime's class parser. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'p', 'P']);

/** Single-letter control escapes and the code point each stands for. */
const CONTROL_ESCAPES: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * Parses a pattern.
 * @param source - the pattern as the schema gives it
 * @throws {UnsupportedPattern} for a pattern the runtime rejects or a finite automaton cannot match
 */
export function parsePattern(source: string): PatternNode {
  try {
    new RegExp(source, 'u');
  } catch {
    throw new UnsupportedPattern('it is not a valid regular expression');
  }
  const parser = new PatternParser(source);
  const node = parser.choice();
  if (parser.position < source.length) throw new UnsupportedPattern('unbalanced parentheses');
  return node;
}

class PatternParser {
  position = 0;
  private readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  choice(): PatternNode {
    const items = [this.sequence()];
    while (this.source[this.position] === '|') {
      this.position += 1;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { kind: 'choice', items };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.position < this.source.length) {
      const char = this.source[this.position]!;
      if (char === '|' || char === ')') break;
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : { kind: 'sequence', items };
  }

  private quantified(atom: PatternNode): PatternNode {
    const char = this.source[this.position];
    let min: number;
    let max: number;
    if (char === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (char === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const counted = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.position));
      if (!counted) return atom;
      min = Number(counted[1]);
      max =
        counted[2] === undefined ? min : counted[3] ? Number(counted[3]) : Number.POSITIVE_INFINITY;
      if (min > MAX_REPEAT_COUNT || (Number.isFinite(max) && max > MAX_REPEAT_COUNT)) {
        throw new UnsupportedPattern(`a repetition count above ${MAX_REPEAT_COUNT}`);
      }
      this.position += counted[0].length - 1;
    } else return atom;
    this.position += 1;
    // A lazy quantifier matches the same strings: only where a match ends differs.
    if (this.source[this.position] === '?') this.position += 1;
    return { kind: 'repeat', item: atom, min, max };
  }

  private atom(): PatternNode {
    const source = this.source;
    const char = source[this.position]!;
    if (char === '^' || char === '$') {
      this.position += 1;
      return { kind: 'assert', test: char === '^' ? 'start' : 'end' };
    }
    if (char === '.') {
      this.position += 1;
      return { kind: 'char', set: { has: (codePoint) => !LINE_TERMINATORS.has(codePoint) } };
    }
    if (char === '(') return this.group();
    if (char === '[') return this.characterClass();
    if (char === '\\') return this.escape();
    const codePoint = source.codePointAt(this.position)!;
    this.position += codePoint > 0xffff ? 2 : 1;
    return { kind: 'literal', codePoint };
  }

  private group(): PatternNode {
    const source = this.source;
    this.position += 1;
    if (source[this.position] === '?') {
      const next = source[this.position + 1];
      if (next === ':') this.position += 2;
      else if (
        next === '<' &&
        source[this.position + 2] !== '=' &&
        source[this.position + 2] !== '!'
      ) {
        // A named group: the name is well-formed (the runtime parsed it), so it ends at '>'.
        this.position = source.indexOf('>', this.position) + 1;
      } else if (next === '=' || next === '!' || next === '<') {
        throw new UnsupportedPattern('a lookahead or lookbehind');
      } else throw new UnsupportedPattern('an inline modifier group');
    }
    const inner = this.choice();
    this.position += 1; // ')'
    return inner;
  }

  private characterClass(): PatternNode {
    const source = this.source;
    const start = this.position;
    let index = start + 1;
    if (source[index] === '^') index += 1;
    // Without the `v` flag a class does not nest: it ends at the first unescaped ']'.
    while (source[index] !== ']') index += source[index] === '\\' ? 2 : 1;
    this.position = index + 1;
    return { kind: 'char', set: runtimeClass(source.slice(start, index + 1)) };
  }

  private escape(): PatternNode {
    const source = this.source;
    const letter = source[this.position + 1]!;
    if (letter === 'b' || letter === 'B') {
      this.position += 2;
      return { kind: 'assert', test: letter === 'b' ? 'word-boundary' : 'not-word-boundary' };
    }
    if (letter === 'k' || (letter >= '1' && letter <= '9')) {
      throw new UnsupportedPattern('a backreference');
    }
    if (CLASS_ESCAPES.has(letter)) {
      const end =
        letter === 'p' || letter === 'P'
          ? source.indexOf('}', this.position) + 1
          : this.position + 2;
      const classEscape = source.slice(this.position, end);
      this.position = end;
      return { kind: 'char', set: runtimeClass(`[${classEscape}]`) };
    }
    return { kind: 'literal', codePoint: this.escapedCodePoint() };
  }

  /** The code point of a character escape (`\n`, `\x41`, `\u{1F600}`, `\cJ`, `\0`, `\.`). */
  private escapedCodePoint(): number {
    const source = this.source;
    const letter = source[this.position + 1]!;
    this.position += 2;
    if (letter in CONTROL_ESCAPES) return CONTROL_ESCAPES[letter]!;
    if (letter === '0') return 0;
    if (letter === 'c') {
      this.position += 1;
      return source.charCodeAt(this.position - 1) % 32;
    }
    if (letter === 'x') return this.hex(2);
    if (letter === 'u') {
      if (source[this.position] === '{') {
        const end = source.indexOf('}', this.position);
        const codePoint = Number.parseInt(source.slice(this.position + 1, end), 16);
        this.position = end + 1;
        return codePoint;
      }
      const unit = this.hex(4);
      // Under `u`, an escaped surrogate pair is one code point.
      const trail = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(source.slice(this.position));
      if (unit >= 0xd800 && unit <= 0xdbff && trail) {
        this.position += 6;
        return (unit - 0xd800) * 0x400 + (Number.parseInt(trail[1]!, 16) - 0xdc00) + 0x10000;
      }
      return unit;
    }
    // An identity escape (`\.`, `\/`, `\-`): the character itself.
    const codePoint = source.codePointAt(this.position - 1)!;
    if (codePoint > 0xffff) this.position += 1;
    return codePoint;
  }

  private hex(digits: number): number {
    const value = Number.parseInt(this.source.slice(this.position, this.position + digits), 16);
    this.position += digits;
    return value;
  }
}

/**
 * A class the runtime's own parser reads (`[a-z\d]`, `\p{Script=Greek}`), tested one code point
 * at a time: a class anchored to one character cannot backtrack, so the runtime's engine is safe
 * here and gives exactly its semantics, Unicode properties included. ASCII answers are cached.
 */
function runtimeClass(classSource: string): CodePointSet {
  const expression = new RegExp(`^${classSource}$`, 'u');
  const ascii = new Int8Array(ASCII_END);
  return {
    has(codePoint) {
      if (codePoint < ASCII_END) {
        const known = ascii[codePoint]!;
        if (known !== 0) return known > 0;
        const member = expression.test(String.fromCharCode(codePoint));
        ascii[codePoint] = member ? 1 : -1;
        return member;
      }
      return expression.test(String.fromCodePoint(codePoint));
    },
  };
}
