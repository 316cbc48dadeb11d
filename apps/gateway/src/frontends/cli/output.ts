/** Plain-text output of the operator CLI: aligned tables and readable times. */

/** `2026-03-01T14:05:09.123Z` → `2026-03-01 14:05:09 UTC`; null → `never`. */
export function formatTime(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)];
}

/** A secret on a line of its own between blank lines, so it can be copied without anything else. */
export function secretBlock(intro: string, secret: string): string[] {
  return [intro, '', secret, ''];
}
