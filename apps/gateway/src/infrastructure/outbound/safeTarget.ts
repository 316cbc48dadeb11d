import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** An address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable: tests use a stub and never reach DNS). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));

/** A URL checked for sending: the address to connect to, the one that was checked. */
export interface SafeTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** A target refused, with the reason in words for the delivery's attempt and the operator. */
class UnsafeTargetError extends Error {}

/** Cloud metadata services: refused even when private targets are allowed. */
const METADATA = ['169.254.169.254', 'fd00:ec2::254'];

/**
 * Whether an address may be sent to: only ordinary public unicast (ipaddr.js's `unicast` range)
 * unless `allowPrivate`; never a cloud metadata address. IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is
 * judged as the IPv4 address it carries.
 */
export function addressProblem(address: string, allowPrivate: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return `${address} is not an IP address`;
  }
  const normal = parsed.toNormalizedString();
  if (METADATA.some((m) => ipaddr.process(m).toNormalizedString() === normal)) return `${address} is a cloud metadata address`;
  if (allowPrivate) return null;
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `${address} is ${RANGE_WORDS[range] ?? `a ${range} (not public)`} address`;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local',
  multicast: 'a multicast',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  carrierGradeNat: 'a carrier-grade NAT (private)',
  reserved: 'a reserved',
};

/**
 * Checks a URL before each attempt: https only (http too when `allowPrivate`), the host resolved now
 * (so a DNS name that later points inside is caught at the attempt it does), every address it has
 * acceptable. The answer names the address that was checked: the sender connects to it and resolves
 * nothing again, so what is checked is what is reached.
 */
export async function checkTarget(rawUrl: string, options: { resolve: HostResolver; allowPrivate: boolean }): Promise<SafeTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new UnsafeTargetError(`${rawUrl} is not a URL`);
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new UnsafeTargetError(`only https URLs are sent to (${url.protocol.slice(0, -1)} refused)`);
  if (url.username || url.password) throw new UnsafeTargetError('a URL with a user name or password is refused');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await options.resolve(host);
    } catch (error) {
      throw new UnsafeTargetError(`${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (addresses.length === 0) throw new UnsafeTargetError(`${host} has no address`);
  }
  for (const { address } of addresses) {
    const problem = addressProblem(address, options.allowPrivate);
    if (problem) throw new UnsafeTargetError(host === address ? `refused: ${problem}` : `refused: ${host} resolves to ${problem}`);
  }
  return { url, address: addresses[0]!.address, family: addresses[0]!.family };
}
