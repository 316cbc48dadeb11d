import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import helmet from 'helmet';

/**
 * `/docs`: the API reference, Swagger UI rendering `GET /v1/openapi.json`, served entirely from the
 * gateway's own files (swagger-ui-dist from node_modules, our page and start script), so it works
 * with no internet access.
 */

const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The only files served under /docs/assets: the viewer's bundle and stylesheet, and our start script. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': path.join(SWAGGER_UI, 'swagger-ui.css'),
  'swagger-ui-bundle.js': path.join(SWAGGER_UI, 'swagger-ui-bundle.js'),
  'docs.js': path.join(HERE, 'docs.js'),
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GP gateway API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<noscript>The reference needs JavaScript; the document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body>
</html>
`;

/**
 * The dashboard's policy forbids what the viewer needs, so /docs has its own: scripts and fetches
 * from this origin only, and inline styles and data: images, which Swagger UI's React components and
 * stylesheet use. No framing, no base or form elsewhere.
 */
const DOCS_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** helmet's headers with that policy; HSTS is left to whatever terminates TLS in front of the gateway. */
const docsHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: DOCS_CSP_DIRECTIVES },
  referrerPolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
  strictTransportSecurity: false,
});

export function docsRouter(): Router {
  const router = Router();
  router.use(docsHeaders);
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/assets/:file', (req, res, next) => {
    const file = ASSETS[String(req.params.file)];
    if (!file || !Object.hasOwn(ASSETS, String(req.params.file))) return next();
    // `dotfiles: 'allow'`: pnpm keeps packages under node_modules/.pnpm, a dot folder send() would refuse.
    res.sendFile(file, { maxAge: '1h', dotfiles: 'allow' });
  });
  return router;
}
