import { escapeHidden } from '@gp-gateway/protocol';

/**
 * Plain-text output of the operator CLI: aligned tables and readable times, and nothing a stored
 * name could use to drive the terminal. Names stored by a release before the text rule may hold
 * control characters (ESC sequences clear a screen, CR/LF start a forged row, bidi overrides
 * reorder a line): every cell and every printed line goes through `printable`.
 */

/** `text` as the CLI prints it: every control, format and separator character written out as an escape (`\x1b`). */
export function printable(text: string): string {
  return escapeHidden(text);
}

/** Lines of an error message as the CLI prints them: each escaped, the message's own line breaks kept. */
export function printableMessage(message: string): string {
  return message.split('\n').map(printable).join('\n');
}

/** `2026-03-01T14:05:09.123Z` → `2026-03-01 14:05:09 UTC`; null → `never`. */
export function formatTime(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(headers: string[], given: string[][]): string[] {
  // Escaped before measuring, so the columns line up with what is printed.
  const rows = given.map((row) => row.map(printable));
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
