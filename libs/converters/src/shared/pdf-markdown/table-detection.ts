import type { Line } from './page-lines.js';
import type { TextSpan } from './pdf-page.js';

/**
 * Pure and conservative: the table starting at `lines[start]`, if the lines from there are clearly a grid:
 * every row has the same number (2 or more) of cells, parted by wide gaps, each column's cells aligned on
 * their left or right edges or their centres, rows close together; at least 3 rows, or 2 rows of 3 columns.
 * Columns of prose (cells wider than 40% of the rows) are no table.
 */
export function tableAt(lines: readonly Line[], start: number): { rows: TextSpan[][][]; end: number } | undefined {
  const first = lines[start]!;
  const columns = first.cells.length;
  if (columns < 2) return undefined;
  let end = start + 1;
  while (end < lines.length) {
    const line = lines[end]!;
    const previous = lines[end - 1]!;
    if (line.cells.length !== columns || line.top - previous.bottom > 2 * line.fontSize || !aligned(first, line)) break;
    end++;
  }
  const count = end - start;
  if (count < 3 && !(count === 2 && columns >= 3)) return undefined;
  const rows = lines.slice(start, end);
  const width = Math.max(...rows.map((line) => line.right)) - Math.min(...rows.map((line) => line.left));
  for (let column = 0; column < columns; column++) {
    const widths = rows.map((line) => line.cells[column]!.right - line.cells[column]!.left).sort((a, b) => a - b);
    if (widths[Math.floor(widths.length / 2)]! > width * 0.4) return undefined;
  }
  return { rows: rows.map((line) => line.cells.map((cell) => cell.spans)), end };
}

function aligned(a: Line, b: Line): boolean {
  const tolerance = Math.max(4, 0.6 * Math.min(a.fontSize, b.fontSize));
  return a.cells.every((cell, index) => {
    const other = b.cells[index]!;
    return (
      Math.abs(cell.left - other.left) <= tolerance ||
      Math.abs(cell.right - other.right) <= tolerance ||
      Math.abs(cell.left + cell.right - other.left - other.right) / 2 <= tolerance
    );
  });
}
