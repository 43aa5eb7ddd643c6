import { pad, textWidth, truncate } from './text-width';

/** A column of a {@link renderTable} table. */
export interface Column {
  header: string;
  /** @default 'left' */
  align?: 'left' | 'right';
  /** This column shrinks (its cells are cut with `…`) when the table is wider than `width`. */
  shrink?: boolean;
}

/** Gap between columns. */
const GAP = '  ';
/** A shrinking column keeps at least this many columns, however narrow the terminal. */
const MIN_SHRUNK_WIDTH = 16;

/**
 * Renders rows as an aligned plain-text table with a header and a rule under it, as wide as
 * `width` at most (shrinkable columns are cut to fit).
 * @param columns - headers and alignment
 * @param rows - cells, as strings
 * @param width - the terminal's width in columns
 */
export function renderTable(
  columns: readonly Column[],
  rows: readonly string[][],
  width: number,
): string {
  const widths = columns.map((column, index) =>
    Math.max(textWidth(column.header), ...rows.map((row) => textWidth(row[index] ?? ''))),
  );
  const total = () =>
    widths.reduce((sum, value) => sum + value, 0) + GAP.length * (widths.length - 1);
  const shrinkable = columns.flatMap((column, index) => (column.shrink ? [index] : []));
  // Level the widest shrinkable column down first, one column of text at a time, so the
  // free-text columns end up sharing the space instead of one of them losing it all.
  let excess = total() - width;
  while (excess > 0) {
    let widest: number | undefined;
    for (const index of shrinkable) {
      if (
        widths[index]! > MIN_SHRUNK_WIDTH &&
        (widest === undefined || widths[index]! > widths[widest]!)
      )
        widest = index;
    }
    if (widest === undefined) break;
    widths[widest]!--;
    excess--;
  }
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = truncate(cells[index] ?? '', widths[index]!);
        // The last left-aligned cell is not padded: no trailing spaces.
        if (index === columns.length - 1 && column.align !== 'right') return cell;
        return pad(cell, widths[index]!, column.align);
      })
      .join(GAP);
  const rule = widths.map((value) => '-'.repeat(value)).join(GAP);
  return [line(columns.map((column) => column.header)), rule, ...rows.map(line)].join('\n');
}
