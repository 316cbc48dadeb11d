import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { newRequestId } from './requestId.ts';

/**
 * Requests that Node's HTTP parser rejects before express sees them (oversized headers, a request
 * line that is not HTTP, bad header bytes) still get the error envelope and a request id, instead
 * of Node's bare 400/431 or a dropped socket.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) return socket.destroy();
    const requestId = newRequestId();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const message = tooLarge ? 'The request headers are too large (at most 16 KB in all).' : 'The request is not valid HTTP.';
    const body = JSON.stringify({ error: { code: 'VALIDATION_ERROR', message, requestId, details: null } });
    socket.end(
      // 400 VALIDATION_ERROR like every other bad header (docs/api.md#errors), rather than Node's bare 431.
      'HTTP/1.1 400 Bad Request\r\n' +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
