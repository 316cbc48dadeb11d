/**
 * GP-style ids of customers and vendors: the first 8 letters of the name plus a 4-digit counter per
 * prefix, e.g. AARONFIT0001. Fixed ids (named vendors) are never handed out again: their prefixes'
 * counters start after them.
 */
export class MasterIdAllocator {
  readonly #used = new Map<string, number>();

  constructor(fixedIds: readonly string[] = []) {
    for (const id of fixedIds) {
      const match = /^([A-Z]*)(\d+)$/.exec(id);
      if (!match) continue;
      const [, prefix = '', digits = '0'] = match;
      this.#used.set(prefix, Math.max(this.#used.get(prefix) ?? 0, Number(digits)));
    }
  }

  next(name: string): string {
    const prefix = name
      .toUpperCase()
      .replace(/[^A-Z]/g, '')
      .slice(0, 8);
    const counter = (this.#used.get(prefix) ?? 0) + 1;
    this.#used.set(prefix, counter);
    return `${prefix}${String(counter).padStart(4, '0')}`;
  }
}
