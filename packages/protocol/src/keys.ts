import { z } from 'zod';
import { UtcTimestampSchema } from './values.ts';

/** An API key as key rotation shows it (docs/api.md#key-rotation): never its hash, owner or last use. */
export const PublicApiKeySchema = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    prefix: z.string().length(12),
    mode: z.enum(['live', 'test']),
    scopes: z.array(z.enum(['read', 'write', 'mcp'])),
    revokedAt: UtcTimestampSchema.nullable(),
    createdAt: UtcTimestampSchema,
  })
  .strict();

/** How long a rotated key's old secret keeps working, as the dashboard offers it: at once, 1 hour, 24 hours, 7 days. */
const ROTATION_OVERLAPS = ['now', '1h', '24h', '7d'] as const;

/**
 * The optional body of `POST /v1/api-keys/{id}/rotate`: without it, or without `overlap` (`{}`, which
 * some HTTP clients send with every POST), the old secret fails at once, as the contract says.
 */
export const RotateKeyBodySchema = z
  .object({
    overlap: z
      .enum(ROTATION_OVERLAPS, { error: () => `must be one of ${ROTATION_OVERLAPS.join(', ')}` })
      .optional()
      .describe('How long the old secret keeps working beside the new one: `now` (the default), `1h`, `24h` or `7d`.'),
  })
  .strict();

/**
 * `POST /v1/api-keys/{id}/rotate` answers the key and its new secret, shown this once; with a body,
 * also until when the old secret works.
 */
export const RotatedKeySchema = z
  .object({
    key: PublicApiKeySchema,
    secret: z.string().regex(/^lb_(live|test)_[0-9A-Za-z]{32}$/),
    oldSecretWorksUntil: UtcTimestampSchema.nullable()
      .optional()
      .describe('Only when the request had a body: the end of the old secret’s overlap; null when it failed at once (`now`).'),
  })
  .strict();
