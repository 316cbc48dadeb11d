import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { issuesOf } from '@gp-gateway/protocol';
import { ApiError } from '../../../errors/apiError.ts';
import type { RecordWriter } from '../../../core/writes/recordWriter.ts';
import { createdRecordId } from '../../../core/writes/writeAudit.ts';
import { routeHeadersOf } from '../../../core/routing/routeHeaders.ts';
import { sendError } from '../errorHandler.ts';
import { jsonBodyReader } from '../jsonBody.ts';
import { sendJson } from '../sendJson.ts';

/** The largest write body read (docs/api.md#size-limits): a sales order of 500 full lines is ~250 KiB. */
const MAX_WRITE_BODY_BYTES = 1024 * 1024;

const WriteQuery = z.object({ validateOnly: z.enum(['true', 'false'], 'must be true or false').optional() }).strict();

/** Reads a JSON body, or throws the error envelope's 400 for a missing, mistyped, malformed or too large one. */
const readBody = jsonBodyReader(MAX_WRITE_BODY_BYTES, { required: 'is required: the record as a JSON object' });

/**
 * `POST /v1/{object}` (docs/api.md#writes) after `guards` (authentication, limits, the write scope):
 * the destination is checked before the body is read, so the documented order of checks holds (docs/api.md#writes) (sandbox and whitelist
 * 403s before a body's 400). The writer's result is rendered as REST renders records and errors: a
 * replay as the first answer was.
 */
export function mountWriteRoutes(app: Express, guards: RequestHandler[], { writer }: { writer: RecordWriter }): void {
  app.post('/v1/:object', ...guards, async (req: Request, res: Response, _next: NextFunction) => {
    const query = WriteQuery.safeParse(req.query);
    if (!query.success) throw ApiError.validation(issuesOf(query.error));
    const place = writer.place({
      target: { ...res.locals.auth!, headers: routeHeadersOf(req), maxInFlight: res.locals.limits!.maxInFlightPerConnection },
      object: String(req.params.object),
      validateOnly: query.data.validateOnly === 'true',
    });
    const body = await readBody(req, res);
    const key = req.headers['idempotency-key'];
    const result = await writer.write(place, {
      body,
      idempotencyKey: typeof key === 'string' ? key : undefined,
      requestId: res.locals.requestId!,
    });
    if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
    if (result.kind === 'refused') return sendError(res, result.error, result.requestId);
    // The created record's id, for the usage page's row (rest/accessLog.ts).
    if (result.kind === 'created') res.locals.recordId = createdRecordId(place.object, result.record);
    res.status(result.kind === 'created' ? 201 : 200);
    sendJson(res, ['{"data":', result.record, '}']);
  });
}
