import fs from 'node:fs';
import type http from 'node:http';
import tls from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';

/**
 * How the agent reaches the gateway on a customer's network: through the proxy named by HTTPS_PROXY
 * (unless NO_PROXY exempts the gateway), trusting the operating system's certificate authorities as
 * well as Node's own list, so that a TLS-inspecting proxy whose root IT installed on the server is
 * trusted as the server's browsers trust it (docs/decisions.md, "The agent on customers' networks").
 */

/** Where Linux distributions keep the system's bundle of trusted roots (Debian/Ubuntu, RHEL/Fedora, SUSE). */
const LINUX_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem'];

/** The PEM certificates of a bundle file; none when it cannot be read. */
function certificatesIn(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/**
 * The roots the agent trusts: Node's bundled (Mozilla) list, the system's store, and the files named
 * by SSL_CERT_FILE (OpenSSL's variable for the system bundle) and NODE_EXTRA_CA_CERTS. The system
 * store comes from `tls.getCACertificates('system')` where the runtime has it (Node >= 22.15, the
 * runtime the single-file program embeds: the Windows certificate store, macOS's keychain); on Linux
 * the distribution's bundle file is read too, because a portable Node build looks for OpenSSL's
 * folder where the build machine had it, not where Debian or RHEL keep it.
 */
export function trustedCertificates(env: NodeJS.ProcessEnv = process.env): string[] {
  const getCACertificates = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates;
  const system = getCACertificates ? getCACertificates('system') : [];
  const files = [...(process.platform === 'linux' ? LINUX_BUNDLES : []), env.SSL_CERT_FILE, env.NODE_EXTRA_CA_CERTS];
  const fromFiles = files.filter((file): file is string => Boolean(file)).flatMap(certificatesIn);
  return [...new Set([...tls.rootCertificates, ...system, ...fromFiles].map((pem) => pem.trim()))];
}

let secureContext: tls.SecureContext | undefined;

/** Built once: parsing a few hundred roots on every reconnect would be waste. */
function gatewaySecureContext(): tls.SecureContext {
  secureContext ??= tls.createSecureContext({ ca: trustedCertificates() });
  return secureContext;
}

/** The proxy for a URL as HTTPS_PROXY/NO_PROXY (either case) decide, or null for a direct connection. */
export function proxyFor(endpoint: string): string | null {
  // proxy-from-env looks up `<scheme>_proxy`: ask for https:// (or http://) so HTTPS_PROXY applies to wss://.
  const url = new URL(endpoint);
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  return getProxyForUrl(url.toString()) || null;
}

/**
 * The options a WebSocket to the gateway needs, or an HTTPS request to it (`gp-agent update`): the
 * proxy's agent when one applies, and the trusted roots.
 */
export function gatewaySocketOptions(endpoint: string): { agent?: http.Agent; secureContext?: tls.SecureContext } {
  const proxy = proxyFor(endpoint);
  const secure = ['wss:', 'https:'].includes(new URL(endpoint).protocol);
  return {
    ...(proxy ? { agent: new HttpsProxyAgent(proxy) } : {}),
    ...(secure ? { secureContext: gatewaySecureContext() } : {}),
  };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Null when the agent may dial this gateway URL, else why not: the token is sent on connect, so
 * only https:// (wss://) is accepted, except for a gateway on this very machine (tests, a demo).
 */
export function insecureGatewayProblem(gatewayUrl: string): string | null {
  const url = new URL(gatewayUrl);
  if (url.protocol === 'https:' || url.protocol === 'wss:' || LOOPBACK.test(url.hostname)) return null;
  return `must start with https:// (or wss://): over ${url.protocol}// the agent token would cross the network in clear text; http:// is accepted only for a gateway on this machine (localhost, 127.0.0.1, [::1])`;
}
