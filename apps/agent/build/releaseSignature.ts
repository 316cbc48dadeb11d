import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The detached signature of SHA256SUMS (docs/decisions.md, "Signed and verifiable"). RSA with
 * SHA-256 (PKCS#1 v1.5), not Ed25519, because Windows PowerShell 5.1, what a customer's server has,
 * can verify it with .NET alone, and `openssl dgst` does on Linux. The public key is written beside
 * the signature in the two forms those tools read (PEM, and .NET's RSAKeyValue XML); a key file is
 * trusted only when its SHA-256 equals the one the README publishes.
 */

export const SIGNATURE_FILE = 'SHA256SUMS.sig';
export const PUBLIC_KEY_PEM = 'gp-agent-release.pub.pem';
export const PUBLIC_KEY_XML = 'gp-agent-release.pub.xml';

/** The public key as .NET's RSA.FromXmlString reads it. */
function publicKeyXml(publicKey: crypto.KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const b64 = (b64url: string | undefined) => Buffer.from(b64url!, 'base64url').toString('base64');
  return `<RSAKeyValue><Modulus>${b64(jwk.n)}</Modulus><Exponent>${b64(jwk.e)}</Exponent></RSAKeyValue>`;
}

export interface ReleaseKeyFiles {
  signature: string;
  /** `sha256 of the file` for each public key file: what the README publishes. */
  fingerprints: { pem: string; xml: string };
}

/** The public half of the release key, as PEM: what the programs embed, so that `gp-agent update` trusts only it. */
export function releasePublicKeyPem(privateKeyPem: string): string {
  return crypto.createPublicKey(crypto.createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * Signs `dir`/SHA256SUMS with the PEM private key, writing SHA256SUMS.sig (the raw signature) and
 * the public key files. The signature is deterministic (PKCS#1 v1.5), so builds stay reproducible.
 */
export function signSums(dir: string, privateKeyPem: string): ReleaseKeyFiles {
  const privateKey = crypto.createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'rsa' || (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) < 3072)
    throw new Error(
      'the release key must be an RSA key of at least 3072 bits (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072)',
    );
  const sums = fs.readFileSync(path.join(dir, 'SHA256SUMS'));
  const signature = crypto.sign('sha256', sums, { key: privateKey, padding: crypto.constants.RSA_PKCS1_PADDING });
  fs.writeFileSync(path.join(dir, SIGNATURE_FILE), signature);
  const publicKey = crypto.createPublicKey(privateKey);
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const xml = publicKeyXml(publicKey);
  fs.writeFileSync(path.join(dir, PUBLIC_KEY_PEM), pem);
  fs.writeFileSync(path.join(dir, PUBLIC_KEY_XML), xml);
  const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
  return { signature: path.join(dir, SIGNATURE_FILE), fingerprints: { pem: sha256(pem), xml: sha256(xml) } };
}
