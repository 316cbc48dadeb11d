import { Router, type Express, type RequestHandler } from 'express';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthAuthority } from '../../core/oauth/oauthAuthority.ts';
import type { OAuthUrls } from '../../core/oauth/oauthUrls.ts';
import { OAUTH_SCOPES } from '../../infrastructure/store/store.ts';
import { ApiError } from '../../errors/apiError.ts';

/**
 * RFC 8414 metadata as the SDK makes it, corrected where this server differs from its defaults: the
 * issuer without a trailing slash (oauthUrls.ts),
 * every client is public (no secrets: oauth/oauthClients.ts), so `none` is the only client
 * authentication, and clients may name themselves by a metadata document URL.
 */
function authorizationServerMetadata(authority: OAuthAuthority, urls: OAuthUrls): OAuthMetadata {
  return {
    ...createOAuthMetadata({ provider: authority, issuerUrl: urls.issuer, scopesSupported: [...OAUTH_SCOPES] }),
    issuer: urls.issuerId,
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
  };
}

/** RFC 9728: what /mcp is and who issues its tokens. */
function protectedResourceMetadata(urls: OAuthUrls): OAuthProtectedResourceMetadata {
  return {
    resource: urls.resource.href,
    authorization_servers: [urls.issuerId],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'GP gateway',
    resource_documentation: new URL('/docs', urls.issuer).href,
  };
}

/**
 * The OAuth endpoints for /mcp (docs/api.md#oauth), mounted at the root: the MCP SDK's own
 * handlers (authorize with PKCE S256 only, token, RFC 7591 registration, RFC 7009 revocation, each
 * with its rate limit, made here at start as express-rate-limit requires), and the two metadata
 * documents, made on first use: they name the issuer, the public base URL, which without
 * GATEWAY_URL is known only once the gateway listens.
 */
export function mountOAuth(app: Express, authority: OAuthAuthority, urls: () => OAuthUrls): void {
  let metadata: Router | null = null;
  const buildMetadata = (): Router => {
    const at = urls();
    const built = Router();
    // OAuth 2.1 and the SDK take an issuer over https only, loopback aside.
    if (at.issuer.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(at.issuer.hostname)) {
      built.use(['/.well-known/oauth-protected-resource', '/.well-known/oauth-authorization-server'], () => {
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          `OAuth needs the gateway's public address over https; GATEWAY_URL is ${at.issuerId}. API keys work on /mcp meanwhile.`,
        );
      });
      return built;
    }
    const resourceMetadata = metadataHandler(protectedResourceMetadata(at));
    built.use('/.well-known/oauth-protected-resource/mcp', resourceMetadata);
    built.use('/.well-known/oauth-protected-resource', resourceMetadata);
    built.use('/.well-known/oauth-authorization-server', metadataHandler(authorizationServerMetadata(authority, at)));
    return built;
  };
  const lazily: RequestHandler = (req, res, next) => (metadata ??= buildMetadata())(req, res, next);
  app.use((req, res, next) => (req.path.startsWith('/.well-known/') ? lazily(req, res, next) : next()));
  app.use('/authorize', authorizationHandler({ provider: authority }));
  app.use('/token', tokenHandler({ provider: authority }));
  // Client ids are the SDK's UUIDs; no secret is kept (core/oauth/oauthClients.ts drops it).
  app.use('/register', clientRegistrationHandler({ clientsStore: authority.clientsStore, clientSecretExpirySeconds: 0 }));
  app.use('/revoke', revocationHandler({ provider: authority }));
}
