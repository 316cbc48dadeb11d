import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Authenticode through osslsigncode (Debian's `osslsigncode`): the check of the Node runtime's own
 * signature before the build removes it, and the signing of the Windows program (and MSI) with the
 * vendor's certificate when one is configured (docs/decisions.md, "Signed and verifiable").
 */

/** Who signs Node's Windows runtime (the subject of its Authenticode certificate). */
const NODE_PUBLISHER = /O\s*=\s*OpenJS Foundation/;

/**
 * The root Node's signature (and its timestamp) chains to: "Microsoft Identity Verification Root
 * Certificate Authority 2020", by the SHA-256 Microsoft's PKI repository gives for it. It is a code-
 * signing root, in Windows' store but not in the TLS bundles Linux distributions ship, so the copy
 * inside the signature is used, trusted only if it has exactly this fingerprint.
 */
const NODE_SIGNING_ROOT_SHA256 = '53:67:F2:0C:7A:DE:0E:2B:CA:79:09:15:05:6D:08:6B:72:0C:33:C1:FA:2A:26:61:AC:F7:87:E3:29:2E:12:70';

function osslsigncode(args: string[]): { ok: boolean; output: string } {
  const run = spawnSync('osslsigncode', args, { encoding: 'utf8' });
  if (run.error) throw new Error(`osslsigncode is needed for Authenticode (Debian: apt-get install osslsigncode): ${run.error.message}`);
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

export interface VerifyOptions {
  /** PEM roots to trust (for the signature and its timestamp). */
  caFile: string;
  /** The signer's subject must match this. */
  publisher: RegExp;
}

/**
 * Throws unless `file` carries a valid Authenticode signature that chains to a root of `caFile` and
 * whose signer matches `publisher`; returns the signer. Revocation lists are not fetched: a build
 * and its tests make no network calls beyond the pinned runtime download.
 */
export function verifyAuthenticode(file: string, options: VerifyOptions): string {
  const { caFile } = options;
  const { ok, output } = osslsigncode(['verify', '-in', file, '-CAfile', caFile, '-ignore-crl', '-ignore-cdp', '-TSA-CAfile', caFile]);
  const signer = /Signer's certificate:[\s\S]*?Subject: (.*)/.exec(output)?.[1]?.trim() ?? '';
  if (!ok || !/Signature verification: ok/.test(output))
    throw new Error(`${file}: its Authenticode signature does not verify:\n${output.trim().split('\n').slice(-8).join('\n')}`);
  if (!options.publisher.test(signer)) throw new Error(`${file} is signed by "${signer}", not by ${options.publisher}`);
  return signer;
}

/**
 * Checks the signature of Node's Windows runtime before the build cuts it: valid, chained (with its
 * timestamp) to the pinned Microsoft root, signed by the OpenJS Foundation. The pinned SHA-512 of the
 * tarball says the file is the one pinned; this says who made it.
 */
export function verifyNodeRuntime(exe: string): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gp-agent-authenticode-'));
  try {
    const signature = path.join(work, 'signature.pem');
    const extracted = osslsigncode(['extract-signature', '-pem', '-in', exe, '-out', signature]);
    if (!extracted.ok) throw new Error(`${exe} carries no Authenticode signature: Node's Windows runtime is always signed`);
    const certificates = execFileSync('openssl', ['pkcs7', '-print_certs', '-in', signature], { encoding: 'utf8' }).match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    );
    const root = certificates?.find((pem) => new crypto.X509Certificate(pem).fingerprint256 === NODE_SIGNING_ROOT_SHA256);
    if (!root) throw new Error(`${exe}: its signature does not chain to the pinned Microsoft root (${NODE_SIGNING_ROOT_SHA256})`);
    const caFile = path.join(work, 'root.pem');
    fs.writeFileSync(caFile, root);
    return verifyAuthenticode(exe, { caFile, publisher: NODE_PUBLISHER });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export interface SigningCertificate {
  /** PEM certificate (chain) and private key files; the key's passphrase, if any, in a file of its own. */
  certFile: string;
  keyFile: string;
  passFile?: string;
}

/** The signing certificate named by GP_AGENT_SIGN_CERT / GP_AGENT_SIGN_KEY (/ GP_AGENT_SIGN_PASS_FILE), or null. */
export function signingCertificateFromEnv(env: NodeJS.ProcessEnv): SigningCertificate | null {
  const { GP_AGENT_SIGN_CERT: certFile, GP_AGENT_SIGN_KEY: keyFile, GP_AGENT_SIGN_PASS_FILE: passFile } = env;
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new Error('Authenticode signing needs both GP_AGENT_SIGN_CERT and GP_AGENT_SIGN_KEY (PEM files)');
  return { certFile, keyFile, ...(passFile ? { passFile } : {}) };
}

/**
 * Signs a Windows program or MSI in place, SHA-256, with the signing time fixed to `epoch` (the
 * commit's time), so that two builds of one commit stay the same bytes. The passphrase is read from
 * its file by osslsigncode, never passed on a command line.
 */
export function signAuthenticode(file: string, certificate: SigningCertificate, description: string, epoch: number): void {
  const signed = `${file}.signed`;
  const { ok, output } = osslsigncode([
    'sign',
    '-certs',
    certificate.certFile,
    '-key',
    certificate.keyFile,
    ...(certificate.passFile ? ['-readpass', certificate.passFile] : []),
    '-h',
    'sha256',
    '-n',
    description,
    '-time',
    String(epoch),
    '-in',
    file,
    '-out',
    signed,
  ]);
  if (!ok) {
    fs.rmSync(signed, { force: true });
    throw new Error(`osslsigncode could not sign ${file}:\n${output.trim()}`);
  }
  fs.renameSync(signed, file);
}
