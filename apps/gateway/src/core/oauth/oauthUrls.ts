import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';

/**
 * Where the gateway's OAuth lives, from its public base URL (GATEWAY_URL, or http://localhost:<port>
 * when unset): the issuer is the base URL, the protected resource is `/mcp` under it.
 */
export interface OAuthUrls {
  issuer: URL;
  /**
   * The issuer identifier as metadata, `iss` and `authorization_servers` give it: the origin without
   * the trailing slash a URL's href has, so that removing the well-known part of the metadata's URL
   * gives it back (RFC 8414 3.3), as the MCP conformance suite checks.
   */
  issuerId: string;
  /** The resource tokens are issued for (RFC 8707) and checked against: `<base>/mcp`. */
  resource: URL;
  /** RFC 9728's path-suffixed form: `<base>/.well-known/oauth-protected-resource/mcp`. */
  resourceMetadata: URL;
  /** The dashboard page where a user consents. */
  consent: URL;
}

export function oauthUrlsOf(base: URL): OAuthUrls {
  const issuer = new URL(base.origin);
  const resource = new URL('/mcp', issuer);
  return {
    issuer,
    issuerId: issuer.origin,
    resource,
    resourceMetadata: new URL(getOAuthProtectedResourceMetadataUrl(resource)),
    consent: new URL('/dashboard/oauth/authorize', issuer),
  };
}

/** Two resource identifiers name the same resource: fragment and one trailing slash aside (as the SDK's bearer check compares). */
export function sameResource(a: URL | string, b: URL | string): boolean {
  const comparable = (value: URL | string) => {
    const url = new URL(String(value));
    url.hash = '';
    return url.href.replace(/\/$/, '');
  };
  try {
    return comparable(a) === comparable(b);
  } catch {
    return false;
  }
}
