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

/** `POST /v1/api-keys/{id}/rotate` answers the key and its new secret, shown this once. */
export const RotatedKeySchema = z
  .object({ key: PublicApiKeySchema, secret: z.string().regex(/^lb_(live|test)_[0-9A-Za-z]{32}$/) })
  .strict();
