/**
 * How long a rotated secret (API key or agent token) keeps working beside its replacement
 * (docs/decisions.md#rotation-with-an-overlap): at once, an hour, a day or a week. A week is the
 * longest, as Stripe allows: long enough for a customer's IT to deploy the new secret in its next
 * maintenance window, short enough that a leaked secret does not outlive its rotation for long.
 */
const OVERLAP_MS = {
  now: 0,
  '1h': 3600_000,
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
} as const;

export type RotationOverlap = keyof typeof OVERLAP_MS;

export const ROTATION_OVERLAP_NAMES = Object.keys(OVERLAP_MS) as RotationOverlap[];

/** The overlap named `text` (`now`, `1h`, `24h`, `7d`), or null for anything else. */
export function rotationOverlapNamed(text: string): RotationOverlap | null {
  const name = text.trim().toLowerCase();
  return Object.hasOwn(OVERLAP_MS, name) ? (name as RotationOverlap) : null;
}

/** Until when the old secret works when rotated at `at` with `overlap`; null when it ends at once. */
export function overlapEnd(overlap: RotationOverlap, at: Date): Date | null {
  const ms = OVERLAP_MS[overlap];
  return ms === 0 ? null : new Date(at.getTime() + ms);
}
