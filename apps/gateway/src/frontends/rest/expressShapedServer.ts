import http from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * An HTTP server whose requests and responses are born with the app's express prototypes.
 *
 * express moves every request and response onto its own prototypes at the start of app.handle
 * (Object.setPrototypeOf). That gives V8 a second shape of every request and response, so Node's
 * HTTP code and express both run on polymorphic objects: about a quarter of the gateway's CPU per
 * get-by-id (docs/decisions.md "Speed"). Constructed on those prototypes, express's call finds the
 * prototype already in place and changes nothing.
 */
export function createExpressShapedServer(app: Express): http.Server {
  function ExpressRequest(this: http.IncomingMessage, socket: Socket): void {
    http.IncomingMessage.call(this, socket);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown): void {
    (http.ServerResponse as unknown as (req: http.IncomingMessage, options?: unknown) => void).call(this, req, options);
  }
  ExpressResponse.prototype = app.response;
  return http.createServer(
    {
      IncomingMessage: ExpressRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse,
      // A request without Host gets the error envelope from the app (http/requestId.ts), not Node's bare 400.
      requireHostHeader: false,
    },
    app,
  );
}
