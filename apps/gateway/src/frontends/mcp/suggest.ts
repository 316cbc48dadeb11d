/**
 * The name a model most likely meant when it sent a near miss: `customer`, `Customers`,
 * `sales_orders`, `glentries`, `vendor-adresses`. Null when nothing is close enough to guess.
 */
export function nearestName(input: string, names: readonly string[]): string | null {
  const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = plain(input);
  if (!wanted) return null;
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const candidate = plain(name);
    const distance = candidate === wanted || candidate === `${wanted}s` ? 0 : editDistance(wanted, candidate);
    if (!best || distance < best.distance) best = { name, distance };
  }
  // Two edits in a long name is a typo; in a short one it is another word.
  return best && best.distance <= Math.min(2, Math.floor(wanted.length / 4)) ? best.name : null;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
