import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A self-signed certificate and its key, made by openssl in a folder of the test's, never trusted
 * anywhere but where the test says: a gateway's TLS on loopback (subjectAltName IP:127.0.0.1), a
 * code-signing certificate for Authenticode.
 */
export interface ThrowawayCertificate {
  key: string;
  cert: string;
  /** The PEM files. */
  keyFile: string;
  certFile: string;
}

export function throwawayCertificate(
  dir: string,
  options: { name: string; extensions: string[] } = { name: 'gateway', extensions: ['subjectAltName=IP:127.0.0.1'] },
): ThrowawayCertificate {
  const keyFile = path.join(dir, `${options.name}.key.pem`);
  const certFile = path.join(dir, `${options.name}.cert.pem`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${options.name} (throwaway, tests only)`,
      ...options.extensions.flatMap((e) => ['-addext', e]),
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), keyFile, certFile };
}
