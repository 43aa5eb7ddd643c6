// Fails when a file in packages/*/src (tests included) is longer than MAX_LINES and its header
// does not say why it must be one piece. Run by `pnpm check:structure` (part of `pnpm check`):
// `node --experimental-strip-types scripts/check-file-sizes.ts`.
//
// A long file passes when its leading comment (the comments before its first line of code)
// holds a line `One piece: <the reason>`: why splitting it would make it harder to read or to
// keep right. Anything else is split, one concept per file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The house rule: no source file over about 500 lines without a reason in its header. */
const MAX_LINES = 500;
/** A reason shorter than this says nothing ("One piece: yes"). */
const MIN_REASON_LENGTH = 20;
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);
const REASON = /^\s*(?:\/\/|\/?\*+)?\s*One piece:\s*(.*)$/im;

const root = resolve(import.meta.dirname, '..');

function* sourceFiles(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) yield* sourceFiles(path);
    } else if (SOURCE_FILE.test(entry.name)) {
      yield path;
    }
  }
}

/** The comments before the first line of code (a shebang line counts as a comment). */
function leadingComment(text: string): string {
  const lines: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (inBlock) {
      lines.push(line);
      if (trimmed.includes('*/')) inBlock = false;
    } else if (trimmed === '' || trimmed.startsWith('//') || trimmed.startsWith('#!')) {
      lines.push(line);
    } else if (trimmed.startsWith('/*')) {
      lines.push(line);
      inBlock = !trimmed.includes('*/', 2);
    } else {
      break;
    }
  }
  return lines.join('\n');
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

const problems: string[] = [];
let checked = 0;
for (const packageFolder of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
  if (!packageFolder.isDirectory()) continue;
  const src = join(root, 'packages', packageFolder.name, 'src');
  let files: string[];
  try {
    files = [...sourceFiles(src)];
  } catch {
    continue;
  }
  for (const file of files) {
    checked++;
    const name = relative(root, file).split('\\').join('/');
    const text = readFileSync(file, 'utf8');
    const lines = lineCount(text);
    const reason = REASON.exec(leadingComment(text))?.[1]?.trim() ?? '';
    const justified = reason.length >= MIN_REASON_LENGTH;
    if (lines > MAX_LINES && !justified) {
      problems.push(
        `${name}: ${lines} lines (over ${MAX_LINES}). Split it by concept, or, if it must stay one piece, say why in its header: a line "One piece: <reason>" in the comment before its first line of code`,
      );
    }
  }
}
if (problems.length > 0) {
  console.error(`check-file-sizes: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(
  `check-file-sizes: ${checked} files in packages/*/src, none over ${MAX_LINES} lines without a reason`,
);
