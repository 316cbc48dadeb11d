import path from 'node:path';
import type { Express, Request, Response, NextFunction } from 'express';
import { RELEASE_DOWNLOADS_PATH, ReleaseFileNameSchema } from '@gp-gateway/protocol';
import { ApiError } from '../../errors/apiError.ts';
import type { ReleaseFolder } from '../../infrastructure/releases/releaseFolder.ts';

/** Content types by ending; a program without one (the Linux agent) and the signature are plain bytes. */
const CONTENT_TYPES: Array<[RegExp, string]> = [
  [/\.exe$/, 'application/vnd.microsoft.portable-executable'],
  [/\.msi$/, 'application/x-msi'],
  [/\.deb$/, 'application/vnd.debian.binary-package'],
  [/\.json$/, 'application/json; charset=utf-8'],
  [/\.pem$/, 'application/x-pem-file'],
  [/\.xml$/, 'application/xml; charset=utf-8'],
  [/^SHA256SUMS$/, 'text/plain; charset=utf-8'],
];

function contentTypeOf(name: string): string {
  return CONTENT_TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'application/octet-stream';
}

/**
 * `GET /downloads/<file>`: the agent's release folder, read-only and without a key (programs and
 * checksums are no secret, and a customer's IT fetches them from a browser or curl): only the files
 * the release declares (infrastructure/releases/releaseFolder.ts), each with its content type, as
 * an attachment, never sniffed. Anything else, a path included, is 404 in the error envelope.
 */
export function mountDownloads(app: Express, releases: ReleaseFolder | null): void {
  const notFound = (name: string) =>
    new ApiError(
      'NOT_FOUND',
      releases?.current()
        ? `No file named ${JSON.stringify(name.slice(0, 100))} in this gateway's agent release; ${RELEASE_DOWNLOADS_PATH}/manifest.json lists them.`
        : "This gateway serves no agent release (its operator has not copied one into the release folder: docs/operations.md, 'Updating agents').",
    );
  app.get(`${RELEASE_DOWNLOADS_PATH}/:name`, (req: Request, res: Response, next: NextFunction) => {
    const name = String(req.params.name);
    const file = ReleaseFileNameSchema.safeParse(name).success ? releases?.servedPath(name) : null;
    if (!file) return next(notFound(name));
    res.setHeader('Content-Type', contentTypeOf(name));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Checksums and the manifest change with each release; a program's name stays, so no client keeps one long.
    res.setHeader('Cache-Control', 'no-cache');
    if (!/\.(json|pem|xml)$|^SHA256SUMS$/.test(name)) res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    res.sendFile(path.basename(file), { root: path.dirname(file), dotfiles: 'deny', lastModified: true }, (error) => {
      if (error && !res.headersSent) next(notFound(name));
    });
  });
}
