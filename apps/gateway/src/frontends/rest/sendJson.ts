import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON body made of our text around an agent's bytes, written in one go (one writev with the
 * headers) without first copying the bytes into one buffer or through a string. The status is the
 * response's (200 unless set before).
 */
export function sendJson(res: Response, parts: ReadonlyArray<string | Buffer>): void {
  const chunks = parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part));
  // What res.type('application/json') writes, without its MIME lookup on every response.
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader(
    'Content-Length',
    chunks.reduce((bytes, chunk) => bytes + chunk.length, 0),
  );
  res.cork();
  for (const chunk of chunks.slice(0, -1)) res.write(chunk);
  res.end(chunks.at(-1));
}
