import { z } from 'zod';

/** `GET /v1/{object}` answers `{ data: [...], nextCursor }`; nextCursor is null on the last page. */
export function listEnvelopeSchema<T extends z.ZodType>(resource: T) {
  return z.object({ data: z.array(resource), nextCursor: z.string().min(1).nullable() }).strict();
}

/** `GET /v1/{object}/{id}` answers `{ data: <resource> }`. */
export function getEnvelopeSchema<T extends z.ZodType>(resource: T) {
  return z.object({ data: resource }).strict();
}
