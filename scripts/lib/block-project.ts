// Writes documentation blocks as modules of a throwaway TypeScript project and type-checks them
// the way a user's project would: strict, Node's ESM resolution, the packages' published types.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import type { CodeBlock } from './docs.ts';

/** Where a module of the project came from, to report errors at the Markdown line. */
interface Origin {
  block: CodeBlock;
  /** Lines the module has before the block's first line (an added import). */
  offset: number;
}

/** A block as the smoke test runs it: `declare const x: T;` lines come from the block's harness. */
export interface RunnableModule {
  block: CodeBlock;
  /** The module's file name in the project. */
  fileName: string;
  /** Lines the module has before the block's first line. */
  offset: number;
  /** What the block's comments say its `console.log` calls print. */
  expectations: OutputExpectation[];
}

/** A `console.log(...)` with a comment saying what it prints (`...` stands for anything). */
export interface OutputExpectation {
  /** 1-based line of the `console.log` within the block. */
  blockLine: number;
  expected: string;
}

/** One `console.log` call of a run, as the recorder saw it. */
export interface RecordedOutput {
  /** 1-based line of the call in the module. */
  line: number;
  text: string;
}

/**
 * The harness modules' folder, at the same path in the repository and in the project, so that a
 * harness's relative import of a shared helper (`../../internal/testing/src/...`) resolves in both.
 */
const HARNESS_DIR = 'scripts/readme-harness';
/** A relative module specifier in an import or export statement. */
const RELATIVE_IMPORT = /\bfrom\s+'(\.\.?\/[^']+)'/g;

/** The environment variable naming the file the recorder appends to. */
export const RECORD_ENV = 'README_OUTPUT_RECORD';
const RECORDER_FILE = 'record-output.ts';
/**
 * Loaded first by every runnable module: records each `console.log` with the line that called
 * it (type stripping keeps line numbers), fully formatted on one line, then prints as usual.
 */
const RECORDER_SOURCE = `import { appendFileSync } from 'node:fs';
import { formatWithOptions } from 'node:util';

const target = process.env.${RECORD_ENV};
const print = console.log.bind(console);
console.log = (...values: unknown[]) => {
  const caller = new Error().stack?.split('\\n')[2] ?? '';
  const line = Number(/:(\\d+):\\d+\\)?$/.exec(caller)?.[1] ?? 0);
  const text = formatWithOptions({ depth: Infinity, breakLength: Infinity }, ...values);
  if (target) appendFileSync(target, \`\${JSON.stringify({ line, text })}\\n\`);
  print(...values);
};
`;

/**
 * The expected outputs written in a block: a comment after `console.log(...);` on its line, or
 * the comment lines right below such a statement.
 */
function expectedOutputs(lines: readonly string[]): OutputExpectation[] {
  const expectations: OutputExpectation[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!/^\s*console\.log\(/.test(line)) continue;
    const comments: string[] = [];
    const trailing = /\);\s*\/\/\s?(.*)$/.exec(line);
    if (trailing) comments.push(trailing[1]!);
    let next = index + 1;
    if (!trailing && line.trimEnd().endsWith(');')) {
      while (next < lines.length && /^\s*\/\//.test(lines[next]!)) {
        comments.push(lines[next]!.replace(/^\s*\/\/\s?/, ''));
        next++;
      }
    }
    if (comments.length > 0)
      expectations.push({ blockLine: index + 1, expected: comments.join(' ') });
  }
  return expectations;
}

/**
 * Whether printed text matches a comment: whitespace and quote style are ignored, and `...` in
 * the comment stands for anything.
 */
export function matchesExpectation(text: string, expected: string): boolean {
  const normalize = (value: string) => value.replace(/\s+/g, '').replace(/"/g, "'");
  const pattern = normalize(expected)
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's').test(normalize(text));
}

/** The compiler options of a user's strict Node project (type stripping compatible). */
const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  target: 'es2023',
  lib: ['es2023'],
  module: 'nodenext',
  moduleResolution: 'nodenext',
  types: ['node'],
  skipLibCheck: true,
  // Node's type stripping needs `import type` for types, as this flag does.
  verbatimModuleSyntax: true,
  allowImportingTsExtensions: true,
};

const DECLARE_LINE = /^declare\s+const\s+([A-Za-z_$][\w$]*)\s*:.*;\s*(?:\/\/.*)?$/;

/** A name for a block's harness: the package name for a package README, else the file's path. */
export function harnessName(block: CodeBlock, packageNames: ReadonlyMap<string, string>): string {
  return packageNames.get(block.file) ?? block.file.replace(/\.md$/, '').replace(/[^\w-]+/g, '-');
}

/** The project: blocks as modules, plus runnable variants and their harness files. */
export class BlockProject {
  readonly dir: string;
  readonly #origins = new Map<string, Origin>();
  readonly #files: string[] = [];
  readonly #harnessFiles = new Set<string>();

  /**
   * @param dir - an empty folder for the project
   * @param root - the repository: its harness modules (scripts/readme-harness) and the shared
   *   helpers they import by relative path are copied into the project at the same paths
   */
  constructor(dir: string, root: string) {
    this.dir = dir;
    mkdirSync(join(dir, 'blocks'), { recursive: true });
    mkdirSync(join(dir, HARNESS_DIR), { recursive: true });
    for (const file of readdirSync(join(root, HARNESS_DIR)).filter((name) =>
      name.endsWith('.ts'),
    )) {
      this.#copyModule(root, `${HARNESS_DIR}/${file}`);
    }
    writeFileSync(join(dir, HARNESS_DIR, RECORDER_FILE), RECORDER_SOURCE);
    this.#harnessFiles.add(`${HARNESS_DIR}/${RECORDER_FILE}`);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'readme-blocks', private: true, type: 'module' }, null, 2)}\n`,
    );
  }

  /** Adds a block as its own module, exactly as written. */
  addBlock(block: CodeBlock): void {
    const fileName = `blocks/${slug(block)}.ts`;
    this.#write(fileName, block.code, { block, offset: 0 });
  }

  /**
   * Adds the runnable variant of a `ts run` block: each `declare const` line imports that name
   * from the block's harness instead, the harness's `verify()` runs after the block, and what
   * each `console.log` prints is recorded to compare with the comment beside or below it.
   * @returns the module, or the reason it cannot run
   */
  addRunnable(block: CodeBlock, harness: string): RunnableModule | string {
    const hasHarness = this.#harnessFiles.has(`${HARNESS_DIR}/${harness}.ts`);
    const lines = block.code.split('\n');
    const declared = lines.map((line) => DECLARE_LINE.exec(line)?.[1]);
    const stray = lines.findIndex((line, index) => /^\s*declare\s/.test(line) && !declared[index]);
    if (stray !== -1) {
      return `${block.file}:${block.line + stray}: a runnable block may only declare one const per line (\`declare const x: T;\`)`;
    }
    if (declared.some(Boolean) && !hasHarness) {
      return `${block.file}:${block.line}: this runnable block declares ${declared.filter(Boolean).join(', ')}; add scripts/readme-harness/${harness}.ts exporting them`;
    }
    const harnessImport = `../${HARNESS_DIR}/${harness}.ts`;
    const body = lines.map((line, index) =>
      declared[index] ? `import { ${declared[index]} } from '${harnessImport}';` : line,
    );
    const prelude = [`import '../${HARNESS_DIR}/${RECORDER_FILE}';`];
    if (hasHarness) prelude.push(`import { verify as verifyReadmeRun } from '${harnessImport}';`);
    const epilogue = hasHarness ? ['await verifyReadmeRun();'] : [];
    const fileName = `blocks/${slug(block)}.run.ts`;
    this.#write(fileName, [...prelude, ...body, ...epilogue].join('\n'), {
      block,
      offset: prelude.length,
    });
    return { block, fileName, offset: prelude.length, expectations: expectedOutputs(lines) };
  }

  /**
   * Type-checks every module with the given `tsc`.
   * @returns the errors, each located at its Markdown file and line
   */
  typeCheck(tsc: string): string[] {
    const files = [...this.#files, ...this.#harnessFiles];
    writeFileSync(
      join(this.dir, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files }, null, 2)}\n`,
    );
    try {
      execFileSync(tsc, ['-p', 'tsconfig.json', '--pretty', 'false'], {
        cwd: this.dir,
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return [];
    } catch (error) {
      const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
      return this.#locate(output);
    }
  }

  /**
   * Copies a module of the repository to the same path in the project, then the modules it
   * imports by relative path (a harness's shared helpers), which must stay inside the repository
   * and import nothing the project lacks: Node's built-ins and the installed packages.
   */
  #copyModule(root: string, file: string): void {
    if (this.#harnessFiles.has(file)) return;
    this.#harnessFiles.add(file);
    mkdirSync(dirname(join(this.dir, file)), { recursive: true });
    copyFileSync(join(root, file), join(this.dir, file));
    for (const [, specifier] of readFileSync(join(root, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = posix.normalize(posix.join(posix.dirname(file), specifier!));
      if (target.startsWith('../')) {
        throw new Error(`${file}: imports ${specifier}, which is outside the repository`);
      }
      this.#copyModule(root, target);
    }
  }

  #write(fileName: string, code: string, origin: Origin): void {
    writeFileSync(join(this.dir, fileName), `${code}\n`);
    this.#origins.set(fileName, origin);
    this.#files.push(fileName);
  }

  /** Rewrites `blocks/x.ts(3,7): error ...` as `README.md:42:7: error ...` with the line's code. */
  #locate(output: string): string[] {
    const errors: string[] = [];
    for (const line of output.split('\n')) {
      const match = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line.trim());
      if (!match) {
        if (line.trim() !== '' && errors.length > 0)
          errors[errors.length - 1] += `\n    ${line.trim()}`;
        else if (line.trim() !== '') errors.push(line.trim());
        continue;
      }
      const [, file, row, column, message] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
      const origin = this.#origins.get(file.replace(/\\/g, '/'));
      if (!origin) {
        errors.push(`${file}:${row}:${column}: ${message}`);
        continue;
      }
      const blockRow = Number(row) - origin.offset;
      const source = origin.block.code.split('\n')[blockRow - 1] ?? '';
      const where = blockRow >= 1 ? origin.block.line + blockRow - 1 : origin.block.line;
      errors.push(`${origin.block.file}:${where}:${column}: ${message}\n    ${source.trim()}`);
    }
    return errors;
  }
}

function slug(block: CodeBlock): string {
  return `${block.file.replace(/\.md$/, '').replace(/[^\w-]+/g, '-')}-L${block.line}`;
}
