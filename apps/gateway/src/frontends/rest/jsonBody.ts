import express, { type Request, type Response } from 'express';
import { ApiError } from '../../errors/apiError.ts';

/**
 * Reads a request's JSON body, or throws the error envelope's 400 for a mistyped, malformed or too
 * large one. A request without a body is `missing`: a 400 with that message when the body is
 * required, `undefined` when it is optional.
 */
export function jsonBodyReader(limitBytes: number, missing: { required: string } | 'optional') {
  const size = limitBytes >= 1024 * 1024 ? `${limitBytes / 1024 / 1024} MiB` : `${limitBytes / 1024} KiB`;
  /** Why body-parser refused a body, as our issues; its own words never reach the client. */
  const bodyIssues: Readonly<Record<string, { path: string; message: string }>> = {
    'entity.too.large': { path: 'body', message: `must be at most ${size}` },
    'entity.parse.failed': { path: 'body', message: 'is not valid JSON' },
    'charset.unsupported': { path: 'Content-Type', message: 'the charset must be utf-8' },
    'encoding.unsupported': { path: 'Content-Encoding', message: 'is not supported; send the body unencoded' },
  };
  // Not strict: a body of `null` or `1` is JSON, and the schema says what is wrong with it.
  const parseJson = express.json({ limit: limitBytes, strict: false, type: () => true });

  return (req: Request, res: Response): Promise<unknown> => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) {
      if (missing === 'optional') return Promise.resolve(undefined);
      return Promise.reject(ApiError.validation([{ path: 'body', message: missing.required }]));
    }
    if (!req.is('application/json')) {
      return Promise.reject(ApiError.validation([{ path: 'Content-Type', message: 'must be application/json' }]));
    }
    return new Promise((resolve, reject) => {
      parseJson(req, res, (error?: unknown) => {
        if (error === undefined) return resolve(req.body as unknown);
        const type = (error as { type?: unknown }).type;
        const issue = typeof type === 'string' ? bodyIssues[type] : undefined;
        reject(ApiError.validation([issue ?? { path: 'body', message: 'could not be read' }]));
      });
    });
  };
}
