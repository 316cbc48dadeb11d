import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SafeTarget } from './safeTarget.ts';

/** What a POST was answered with. */
export interface PostAnswer {
  status: number;
  /** The response's Retry-After header, as sent. */
  retryAfter: string | null;
  /** Where a redirect pointed (never followed). */
  location: string | null;
  /** The start of the body, at most `keepBytes`. */
  excerpt: string;
}

/** Connections are kept open between deliveries to one endpoint: a TLS handshake per delivery would cap throughput. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs `body` to a target checked by safeTarget.ts, connecting to the address that was checked (the
 * host name is used for TLS and the Host header, never resolved again). Redirects are not followed:
 * a 3xx is an answer like any other. Rejects with an Error saying what happened when nothing was
 * answered within `timeoutMs` or the connection failed.
 */
export function pinnedPost(
  target: SafeTarget,
  request: { headers: Record<string, string>; body: string; timeoutMs: number; keepBytes: number },
): Promise<PostAnswer> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const protocol = target.url.protocol as 'http:' | 'https:';
  const client = protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const req = client.request(target.url, {
      method: 'POST',
      agent: agents[protocol],
      lookup: pinned,
      headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${request.timeoutMs / 1000} s`)), request.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(describe(error)));
    });
    req.on('response', (res) => {
      const kept: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: header(res.headers['retry-after']),
          location: header(res.headers.location),
          excerpt: Buffer.concat(kept).subarray(0, request.keepBytes).toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size < request.keepBytes) kept.push(chunk);
        size += chunk.length;
        // The rest is not wanted: stop reading (the socket is not reused) rather than take a large body.
        if (size > request.keepBytes * 4) {
          res.destroy();
          finish();
        }
      });
      res.on('end', finish);
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(describe(error)));
      });
    });
    req.end(request.body);
  });
}

function header(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ECONNRESET') return 'connection reset';
  return error.code && !error.message.includes(error.code) ? `${error.message} (${error.code})` : error.message;
}
