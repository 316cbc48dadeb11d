import type { Request } from 'express';

/**
 * The template of the route that answered `req` (`/v1/:object/:id`), or `unmatched` when none did,
 * for metrics and span names: never the path itself, which holds record ids. Read once the response
 * is done. A route of a router mounted on a prefix (`/v1` of the API keys' routes) that ended in an
 * error reads without the prefix: express has restored `req.baseUrl` by the time the error reached
 * the app's handler. (Catching the prefix as the route matched needs a property setter on every
 * request, which made express's requests slower to read: 50% more gateway CPU per request.)
 */
export function routeTemplate(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return route?.path === undefined ? 'unmatched' : `${req.baseUrl}${String(route.path)}`;
}
