import type { Request, RequestHandler, Response } from 'express';
import { buildOpenApiDocument } from '../openapi/document.ts';

/**
 * `GET /v1/openapi.json` without a key: the document integrators point their tools at. Built once per
 * app; it is the same text as docs/openapi.json (documentFile.test.ts holds them together).
 */
export function openApiRoute(): RequestHandler {
  const body = Buffer.from(JSON.stringify(buildOpenApiDocument()));
  return (_req: Request, res: Response) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end(body);
  };
}
