/**
 * GP's account framework: how many segments an account number has and how long each is. It is set
 * once per GP install (GP Utilities) and lives in the system database: DYNAMICS..SY003001.MXNUMSEG is
 * the number of segments, DYNAMICS..SY00302 one row per segment (SGMTNUMB, SGMNTLTH). GL00100 and
 * GL00105 have one column per segment, ACTNUMBR_1 … ACTNUMBR_<MXNUMSEG>, and GP's indexes on account
 * numbers (AK2–AK7GL00100, AK2GL00105) end in all of them (docs/decisions.md#the-chart-of-accounts).
 */
export interface AccountFramework {
  /** SY00302.SGMNTLTH of segments 1 … n, in order; the segment columns are char(length). */
  segmentLengths: readonly number[];
}

/** GP allows at most 10 segments (GP's own procedures declare ACTNUMBR_1 … ACTNUMBR_10). */
export const MAX_ACCOUNT_SEGMENTS = 10;
/** GP's longest account number (SY003001.MXLACNUM can be at most 66). */
export const MAX_ACCOUNT_LENGTH = 66;

/** The framework of the GP 2015 sample the schema was scripted from: 4 segments, char 5/5/3/3. */
export const DEFAULT_ACCOUNT_FRAMEWORK: AccountFramework = { segmentLengths: [5, 5, 3, 3] };

export class AccountFrameworkError extends Error {}

/** `framework` if GP could have it: 1 to 10 segments, each at least 1 long, at most 66 in all. */
export function checkedAccountFramework(framework: AccountFramework): AccountFramework {
  const { segmentLengths } = framework;
  if (segmentLengths.length < 1 || segmentLengths.length > MAX_ACCOUNT_SEGMENTS)
    throw new AccountFrameworkError(`an account framework has 1 to ${MAX_ACCOUNT_SEGMENTS} segments, not ${segmentLengths.length}`);
  if (!segmentLengths.every((length) => Number.isSafeInteger(length) && length >= 1 && length <= MAX_ACCOUNT_LENGTH))
    throw new AccountFrameworkError(`account segment lengths must be 1 to ${MAX_ACCOUNT_LENGTH}: ${segmentLengths.join(', ')}`);
  const total = segmentLengths.reduce((sum, length) => sum + length, 0);
  if (total > MAX_ACCOUNT_LENGTH) throw new AccountFrameworkError(`the account segments add up to ${total}, over ${MAX_ACCOUNT_LENGTH}`);
  return framework;
}

/** The names of the segment columns, ACTNUMBR_1 … ACTNUMBR_<segments>. */
export function accountSegmentNames(segments: number): string[] {
  return Array.from({ length: segments }, (_, i) => `ACTNUMBR_${i + 1}`);
}
