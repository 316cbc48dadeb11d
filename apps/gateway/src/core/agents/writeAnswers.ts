import { z } from 'zod';
import type { Operation, WriteOutcome } from '@gp-gateway/protocol';

/**
 * What an agent may say about a write (docs/api.md#writes) beyond the code: the issues of a body GP
 * refused (a broken reference names its field) and GP's own error codes. They reach the client, so
 * only this form passes, bounded; anything else an agent sends in `details` is dropped.
 */
const WriteRefusalDetailsSchema = z.object({
  issues: z
    .array(z.object({ path: z.string().max(200), message: z.string().max(500) }).strict())
    .max(100)
    .optional(),
  gp: z
    .array(z.object({ code: z.number().int(), message: z.string().max(500) }).strict())
    .max(100)
    .optional(),
});

/** The part of an agent's error details a client may see for this operation; null when none. */
export function clientDetails(op: Operation, details: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (op.kind !== 'write' || details === undefined) return null;
  const parsed = WriteRefusalDetailsSchema.safeParse(details);
  if (!parsed.success) return null;
  const kept = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  return Object.keys(kept).length ? kept : null;
}

/**
 * Why an answer's outcome does not fit its operation, or null when it does: a write answers
 * `created` or `replayed` (validate-only: `validated`); an outcome answers `created`, `replayed` or
 * `not_executed`; reads answer none. Only `not_executed` comes without a payload.
 */
export function outcomeProblem(op: Operation, outcome: WriteOutcome | undefined, hasPayload: boolean): string | null {
  const allowed: readonly (WriteOutcome | undefined)[] =
    op.kind === 'write'
      ? op.validateOnly
        ? ['validated']
        : ['created', 'replayed']
      : op.kind === 'outcome'
        ? ['created', 'replayed', 'not_executed']
        : [undefined];
  if (!allowed.includes(outcome)) return `outcome ${outcome ?? 'missing'} does not answer a ${op.kind}`;
  if ((outcome === 'not_executed') === hasPayload) return outcome === 'not_executed' ? 'not_executed with data' : 'an answer without data';
  return null;
}
