import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { RELEASE_DOWNLOADS_PATH } from '@gp-gateway/protocol';
import { gatewaySocketOptions } from '../connection/gatewayNetwork.ts';

/** Headers must come within this long, and the body must not stall for longer. */
const STALL_MS = 30_000;
/** The programs are about 100 MB; anything far larger is not a release. */
const MAX_DOWNLOAD_BYTES = 512 * 1024 * 1024;

export class DownloadError extends Error {}

/** The URL of a release file on the gateway at `gatewayUrl` (its base URL, as the agent's configuration names it). */
export function downloadUrl(gatewayUrl: string, name: string): string {
  const url = new URL(gatewayUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  url.pathname = `${url.pathname.replace(/\/$/, '')}${RELEASE_DOWNLOADS_PATH}/${encodeURIComponent(name)}`;
  url.search = '';
  return url.toString();
}

/**
 * GET `url` the way the agent's WebSocket reaches the gateway (the proxy of HTTPS_PROXY unless
 * NO_PROXY exempts it, and the system's trusted roots: connection/gatewayNetwork.ts). No redirect is
 * followed: the release is the gateway's own, at its own address.
 */
function get(url: string): Promise<http.IncomingMessage> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { ...gatewaySocketOptions(url), timeout: STALL_MS }, (response) => {
      if (response.statusCode === 200) return resolve(response);
      response.resume();
      const where = response.headers.location ? ` (to ${response.headers.location})` : '';
      reject(
        new DownloadError(
          response.statusCode === 404
            ? `${url}: the gateway has no such file (HTTP 404): its operator has not put a release in its release folder`
            : `${url}: HTTP ${response.statusCode}${where}`,
        ),
      );
    });
    request.on('timeout', () => request.destroy(new DownloadError(`${url}: no answer within ${STALL_MS / 1000} s`)));
    request.on('error', (error) => reject(error instanceof DownloadError ? error : new DownloadError(`${url}: ${error.message}`)));
  });
}

/** A small file (manifest, checksums, signature) in memory. */
export async function fetchSmall(gatewayUrl: string, name: string, maxBytes = 1024 * 1024): Promise<Buffer> {
  const url = downloadUrl(gatewayUrl, name);
  const response = await get(url);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      response.destroy();
      throw new DownloadError(`${url}: larger than ${maxBytes} bytes, which this file never is`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A program, streamed into `file` (created new, mode 0700) with its SHA-256 taken on the way; returns the checksum. */
export async function downloadTo(gatewayUrl: string, name: string, file: string): Promise<{ sha256: string; bytes: number }> {
  const url = downloadUrl(gatewayUrl, name);
  const response = await get(url);
  const hash = crypto.createHash('sha256');
  let bytes = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > MAX_DOWNLOAD_BYTES) return done(new DownloadError(`${url}: larger than ${MAX_DOWNLOAD_BYTES} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  response.setTimeout(STALL_MS, () => response.destroy(new DownloadError(`${url}: the download stalled for ${STALL_MS / 1000} s`)));
  await pipeline(response, measure, fs.createWriteStream(file, { flags: 'wx', mode: 0o700 }));
  return { sha256: hash.digest('hex'), bytes };
}
