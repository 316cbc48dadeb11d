import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressProblem, systemResolver, type HostResolver } from '../../infrastructure/outbound/safeTarget.ts';

/** The draft recommends documents stay under 5 KB; a little more leaves room, megabytes are refused. */
const MAX_DOCUMENT_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

export class ClientDocumentError extends Error {}

/**
 * Whether the gateway may connect to this address on a client's behalf: public unicast only, as
 * webhooks (infrastructure/outbound/safeTarget.ts). A client id URL is chosen by whoever starts an
 * authorization, so without this it could make the gateway fetch from loopback, the private network
 * or a cloud's metadata service (SSRF).
 */
export function isPublicAddress(address: string): boolean {
  return addressProblem(address, false) === null;
}

/**
 * A DNS lookup for node:https that resolves with `resolve` and fails unless every address is
 * public: the connection then goes to an address that was checked (no second resolution a
 * rebinding name could answer differently), and a refused name is never connected to at all.
 */
function publicOnlyLookup(resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (!addresses.length || refused) {
          const error = Object.assign(
            new ClientDocumentError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not a public address`),
            {
              code: 'EREFUSED_ADDRESS',
            },
          );
          return callback(error as NodeJS.ErrnoException, '', 0);
        }
        if (options.all) return (callback as unknown as (e: null, all: Awaited<ReturnType<HostResolver>>) => void)(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** What may be a client id URL (draft-ietf-oauth-client-id-metadata-document): https, a path, no fragment, no credentials. */
export function isClientIdUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://')) return false;
  try {
    const url = new URL(clientId);
    return url.pathname !== '/' && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * Fetches a Client ID Metadata Document: GET over https to a public address only (an IP literal
 * too is checked), no redirects followed, at most 16 KiB, within 5 s. The parsed JSON, unchecked.
 */
export async function fetchClientMetadataDocument(clientId: string, resolve: HostResolver = systemResolver): Promise<unknown> {
  if (!isClientIdUrl(clientId)) throw new ClientDocumentError('a client id URL must be https with a path');
  const url = new URL(clientId);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to an IP literal without a lookup: it is checked here instead.
  if (isIP(host) && !isPublicAddress(host)) throw new ClientDocumentError(`${host} is not a public address`);
  return new Promise((resolvePromise, reject) => {
    const request = https.get(
      url,
      { lookup: publicOnlyLookup(resolve), timeout: FETCH_TIMEOUT_MS, headers: { accept: 'application/json' } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return reject(new ClientDocumentError(`the client's metadata document answered ${response.statusCode}`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_DOCUMENT_BYTES) {
            request.destroy(new ClientDocumentError(`the client's metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`));
          } else chunks.push(chunk);
        });
        response.on('end', () => {
          try {
            resolvePromise(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(new ClientDocumentError("the client's metadata document is not JSON"));
          }
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new ClientDocumentError("the client's metadata document took too long")));
    request.on('error', reject);
  });
}
