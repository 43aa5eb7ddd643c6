/** Markdown and number formatting shared by the benchmark reports. */

/** A markdown table with the given header and rows (cells already formatted). */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const rule = `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A metric in [0, 1] with three decimals. */
export function fixed3(value: number): string {
  return value.toFixed(3);
}

/** Milliseconds with precision suited to their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 100) return value.toFixed(0);
  if (value >= 10) return value.toFixed(1);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/** Bytes as MB (10^6) with one decimal. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)}`;
}

/** An integer with thousands separators. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/**
 * How `ours` compares with `theirs` for a lower-is-better figure: "143× faster" style text, with
 * `better`/`worse` naming the direction ("faster"/"slower", "smaller"/"larger").
 */
export function ratio(ours: number, theirs: number, better: string, worse: string): string {
  if (!(ours > 0) || !(theirs > 0)) return 'n/a';
  const factor = theirs / ours;
  if (factor >= 1) return `${formatFactor(factor)}× ${better}`;
  return `${formatFactor(1 / factor)}× ${worse}`;
}

function formatFactor(factor: number): string {
  return factor >= 10 ? factor.toFixed(0) : factor.toFixed(1);
}
