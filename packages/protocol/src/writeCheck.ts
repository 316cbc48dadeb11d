import { z } from 'zod';
import { WritableObjectNameSchema } from './writes.ts';

/**
 * The write check (`gp-agent diagnose --writes`, and the agent at start when writes are on): a
 * validate-only write of every writable object through GP's own procedures, rolled back, taking no
 * number; per object, whether GP accepts it, and if not GP's error codes and words, or the grant the
 * agent's login lacks. The agent reports its last result in its health (docs/api.md#write-check).
 */
export const WRITE_CHECK_STATUSES = ['works', 'refused', 'forbidden', 'failed', 'skipped'] as const;

/** Each status in the words the CLI and the dashboard show it with. */
export const WRITE_CHECK_WORDS: Readonly<Record<(typeof WRITE_CHECK_STATUSES)[number], string>> = {
  works: 'works',
  refused: 'refused',
  forbidden: 'not permitted',
  failed: 'failed',
  skipped: 'not checked',
};

const WriteCheckObjectSchema = z.object({
  object: WritableObjectNameSchema,
  /**
   * works: GP accepted it. refused: GP (details in `gp`) or a check before it refused the record.
   * forbidden: the login lacks a grant (`message` names it). failed: anything else (the database
   * did not answer). skipped: the company has nothing to reference (no active vendor, say).
   */
  status: z.enum(WRITE_CHECK_STATUSES),
  message: z.string().max(500).optional(),
  /** GP's error codes and their words (taErrorCode), when GP refused the record. */
  gp: z
    .array(z.object({ code: z.number().int(), message: z.string().max(300) }))
    .max(10)
    .optional(),
});
export type WriteCheckObject = z.infer<typeof WriteCheckObjectSchema>;

const WriteCheckCompanySchema = z.object({
  company: z.string().max(5),
  objects: z.array(WriteCheckObjectSchema).max(20),
});
export type WriteCheckCompany = z.infer<typeof WriteCheckCompanySchema>;

/** At most this many companies are reported in health (the first ones SY01500 lists), so a hello stays small. */
export const MAX_WRITE_CHECK_COMPANIES = 5;

export const WriteCheckSchema = z.object({
  /** When the check ran, ISO-8601 UTC by the agent's clock. */
  checkedAt: z.string().max(40),
  companies: z.array(WriteCheckCompanySchema).max(MAX_WRITE_CHECK_COMPANIES),
});
export type WriteCheck = z.infer<typeof WriteCheckSchema>;
