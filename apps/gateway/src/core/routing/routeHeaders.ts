import type { Request } from 'express';
import type { RouteHeaders } from './connectionRouting.ts';

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The routing headers of a request as sent; an empty header counts as absent. */
export function routeHeadersOf(req: Request): RouteHeaders {
  return { connectionId: header(req, 'x-connection-id'), company: header(req, 'x-company') };
}
