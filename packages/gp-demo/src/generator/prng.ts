/**
 * A small seeded PRNG (mulberry32) with independent named streams, so demo data is a pure
 * function of (seed, stream) and adding draws to one phase does not reshuffle another.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by integer weight: [[value, weight], ...]. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
}

export function createRng(seed: number, ...stream: (string | number)[]): Rng {
  let state = hash32([seed, ...stream].join('\u0000'));
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('cannot pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    weighted<T>(choices: readonly (readonly [T, number])[]): T {
      const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
      let ticket = next() * total;
      for (const [value, weight] of choices) {
        ticket -= weight;
        if (ticket < 0) return value;
      }
      const last = choices.at(-1);
      if (!last) throw new RangeError('cannot pick from an empty list');
      return last[0];
    },
  };
}

/** FNV-1a, enough to spread (seed, stream) over the PRNG's 32-bit state. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
