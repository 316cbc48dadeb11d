import type { Request, Response } from 'express';

const installed = new WeakSet<Request>();

/**
 * The template of the route that answers `req` (`/v1/:object/:id`), or `unmatched` when none did,
 * for metrics and span names: never the path itself, which holds record ids. Read it once the
 * response is done.
 *
 * Express sets `req.route` when its router matches a route, while `req.baseUrl` is still that of the
 * router holding it (`/dashboard`), which it no longer is by the time an error has travelled back up
 * to the app's error handler: so the template is taken at that moment, by a setter.
 */
export function routeTemplateOf(req: Request, res: Response): () => string {
  if (!installed.has(req)) {
    installed.add(req);
    let route: unknown;
    res.locals.routeTemplate = 'unmatched';
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: { path?: unknown } | undefined) {
        route = value;
        if (value?.path !== undefined) res.locals.routeTemplate = `${req.baseUrl}${String(value.path)}`;
      },
    });
  }
  return () => res.locals.routeTemplate as string;
}
