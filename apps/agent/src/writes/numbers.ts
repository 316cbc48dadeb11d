/**
 * The number after a document number, as GP takes the next one from its numbering tables: the
 * trailing digits incremented, their width kept ("ORDST1100" → "ORDST1101", "INV00099" → "INV00100").
 * A number without trailing digits gets a 1 appended.
 */
export function nextNumber(number: string): string {
  const match = /^(.*?)(\d+)$/.exec(number.trimEnd());
  if (!match) return `${number.trimEnd()}1`;
  const [, prefix, digits] = match;
  return prefix! + String(BigInt(digits!) + 1n).padStart(digits!.length, '0');
}
