import type { Response } from 'express';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { redirectUriMatches } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  OAUTH_SCOPES,
  type OAuthAccess,
  type OAuthGrant,
  type OAuthScope,
  type Store,
  type User,
} from '../../infrastructure/store/store.ts';
import { mintOAuthSecret, sha256Hex } from '../auth/secrets.ts';
import type { OAuthClients } from './oauthClients.ts';
import { sameResource, type OAuthUrls } from './oauthUrls.ts';

/** docs/decisions.md#oauth-for-mcp: short-lived access, a month of refresh that every use renews. */
const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;
/** A code only carries the browser back to the client, which exchanges it at once. */
const CODE_SECONDS = 300;

/** What the consent page is asked to approve: an authorization request the SDK's handler validated. */
export interface ConsentRequest {
  client: OAuthClientInformationFull;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  /** The scopes the client asked for (the user may grant fewer). */
  scopes: OAuthScope[];
  resource: string;
}

/**
 * The scopes of a request that mean something here; none of ours asked means read (the user may add
 * write). Others are ignored, as RFC 6749 3.3 allows, rather than refused: hosts ask for
 * `offline_access` (the MCP specification's way to ask for a refresh token, always given here),
 * `openid` or a name from another server's metadata, and should still connect.
 */
function scopesOf(requested: readonly string[] | undefined): OAuthScope[] {
  const ours = OAUTH_SCOPES.filter((s) => (requested ?? []).includes(s));
  return ours.length ? ours : ['read'];
}

/**
 * The gateway as an OAuth 2.1 authorization server for /mcp, as the MCP SDK's handlers (authorize,
 * token, register, revoke) drive it: authorize sends the browser to the dashboard's consent page;
 * the consent page approves (approve) and the code is exchanged for opaque tokens, kept as hashes.
 * The SDK checks PKCE (S256 only) and client authentication; this checks everything a grant binds:
 * client, redirect URI, resource (RFC 8707), scopes.
 */
export class OAuthAuthority implements OAuthServerProvider {
  constructor(
    private readonly store: Store,
    readonly clientsStore: OAuthClients,
    private readonly urls: () => OAuthUrls,
  ) {}

  /** The resource a request names, or ours when it names none; another is refused (RFC 8707 invalid_target). */
  resourceOf(resource: URL | string | undefined): string {
    const ours = this.urls().resource.href;
    if (resource === undefined) return ours;
    if (!sameResource(resource, ours)) throw new InvalidTargetError(`This server issues tokens for ${ours} only, not ${String(resource)}.`);
    return ours;
  }

  /** Checked as the SDK's handler checked it, then handed to the dashboard's consent page in the query. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const consent = new URL(this.urls().consent);
    const query = {
      client_id: client.client_id,
      redirect_uri: params.redirectUri,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
      scope: scopesOf(params.scopes).join(' '),
      resource: this.resourceOf(params.resource),
      ...(params.state !== undefined ? { state: params.state } : {}),
    };
    for (const [name, value] of Object.entries(query)) consent.searchParams.set(name, value);
    res.redirect(302, consent.href);
  }

  /**
   * The consent page's request, checked again (it arrives in a URL anyone can edit): the same
   * checks as the authorization endpoint's. Throws an OAuthError the page shows.
   */
  async consentRequest(query: Record<string, unknown>): Promise<ConsentRequest> {
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const client = await this.clientsStore.getClient(text('client_id') ?? '');
    if (!client) throw new InvalidGrantError('Unknown client.');
    const redirectUri = text('redirect_uri') ?? '';
    if (!client.redirect_uris.some((registered) => redirectUriMatches(redirectUri, String(registered)))) {
      throw new InvalidGrantError('The redirect URI is not one the client registered.');
    }
    const codeChallenge = text('code_challenge') ?? '';
    if (text('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      throw new InvalidGrantError('PKCE with S256 is required.');
    }
    return {
      client,
      redirectUri,
      codeChallenge,
      state: text('state'),
      scopes: scopesOf(text('scope')?.split(' ')),
      resource: this.resourceOf(text('resource')),
    };
  }

  /** The user approved: a grant and its code; where the browser goes next (the client's redirect URI with the code). */
  async approve(request: ConsentRequest, user: User, connectionId: string, scopes: OAuthScope[], address: string | null): Promise<string> {
    const code = mintOAuthSecret('code');
    const at = new Date();
    const grant = await this.store.createOAuthGrant({
      orgId: user.orgId,
      userId: user.id,
      clientId: request.client.client_id,
      clientName: request.client.client_name ?? request.client.client_id,
      connectionId,
      scopes,
      resource: request.resource,
      codeHash: code.hash,
      codeChallenge: request.codeChallenge,
      redirectUri: request.redirectUri,
      codeExpiresAt: new Date(at.getTime() + CODE_SECONDS * 1000),
      at,
    });
    await this.store.recordAudit({
      orgId: user.orgId,
      at: at.toISOString(),
      actor: user.email,
      action: 'oauth.approved',
      target: `${grant.clientName} (${grant.id})`,
      details: { clientId: grant.clientId, connection: connectionId, scopes },
      address,
    });
    return this.redirectWith(request, { code: code.secret });
  }

  /** The user said no (RFC 6749 4.1.2.1 access_denied). */
  deny(request: ConsentRequest): string {
    return this.redirectWith(request, { error: 'access_denied', error_description: 'The user denied the request.' });
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const codeHash = sha256Hex(code);
    const found = await this.store.findOAuthCode(codeHash, client.client_id, new Date());
    if (!found) {
      // The SDK asks for the challenge first, so a replayed code stops here: redeeming it (with
      // tokens nobody receives; a code never becomes valid again) revokes the grant it was spent on.
      await this.store.redeemOAuthCode(codeHash, client.client_id, this.mintTokens().hashes, new Date());
      throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
    }
    return found.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const codeHash = sha256Hex(code);
    const found = await this.store.findOAuthCode(codeHash, client.client_id, new Date());
    if (!found) throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
    if (redirectUri !== undefined && redirectUri !== found.redirectUri)
      throw new InvalidGrantError('redirect_uri differs from the authorization request’s.');
    if (resource !== undefined && !sameResource(resource, found.grant.resource))
      throw new InvalidTargetError('resource differs from the authorization request’s.');
    const tokens = this.mintTokens();
    const grant = await this.store.redeemOAuthCode(codeHash, client.client_id, tokens.hashes, new Date());
    if (!grant) throw new InvalidGrantError('The authorization code is invalid, expired or already used.');
    return tokens.answer(grant);
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const tokens = this.mintTokens();
    const grant = await this.store.rotateOAuthRefreshToken(sha256Hex(refreshToken), client.client_id, tokens.hashes, new Date());
    if (!grant) throw new InvalidGrantError('The refresh token is invalid, expired, revoked or already used.');
    // Checked after the rotation so that a refused request cannot probe a token without spending it.
    if (resource !== undefined && !sameResource(resource, grant.resource))
      throw new InvalidTargetError('resource differs from the grant’s.');
    if (scopes && scopesOf(scopes).some((s) => !grant.scopes.includes(s)))
      throw new InvalidScopeError('A refresh cannot add scopes the user did not grant.');
    return tokens.answer(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const access = await this.store.findOAuthAccess(sha256Hex(token));
    if (!access) throw new InvalidTokenError('The access token is invalid, expired or revoked.');
    return {
      token,
      clientId: access.grant.clientId,
      scopes: access.grant.scopes,
      expiresAt: Math.floor(Date.parse(access.accessExpiresAt) / 1000),
      resource: new URL(access.grant.resource),
      extra: { access },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await this.store.revokeOAuthToken(sha256Hex(request.token), client.client_id, new Date());
  }

  /** The organisation's connected apps (roles/oauth.ts listOAuthGrants), newest first. */
  connectedApps(orgId: string): Promise<OAuthGrant[]> {
    return this.store.listOAuthGrants(orgId, new Date());
  }

  /**
   * Revokes a connected app of the organisation: its tokens are refused from the next request.
   * Recorded in the audit log as done by `actor` from `address`. Null when there is no such app.
   */
  async disconnect(orgId: string, grantId: string, actor: string, address: string | null): Promise<OAuthGrant | null> {
    const at = new Date();
    const revoked = await this.store.revokeOAuthGrant(orgId, grantId, at);
    if (revoked) {
      await this.store.recordAudit({
        orgId,
        at: at.toISOString(),
        actor,
        action: 'oauth.revoked',
        target: `${revoked.clientName} (${revoked.id})`,
        details: { user: revoked.userEmail, connection: revoked.connectionId, scopes: revoked.scopes },
        address,
      });
    }
    return revoked;
  }

  /** Records a grant's use (the dashboard's connected apps show it). */
  touch(grantId: string, at: Date): Promise<void> {
    return this.store.touchOAuthGrant(grantId, at);
  }

  private mintTokens() {
    const access = mintOAuthSecret('access');
    const refresh = mintOAuthSecret('refresh');
    const now = Date.now();
    return {
      hashes: {
        accessHash: access.hash,
        accessExpiresAt: new Date(now + ACCESS_TOKEN_SECONDS * 1000),
        refreshHash: refresh.hash,
        refreshExpiresAt: new Date(now + REFRESH_TOKEN_SECONDS * 1000),
      },
      answer: (grant: OAuthGrant): OAuthTokens => ({
        access_token: access.secret,
        token_type: 'Bearer',
        expires_in: ACCESS_TOKEN_SECONDS,
        refresh_token: refresh.secret,
        scope: grant.scopes.join(' '),
      }),
    };
  }

  private redirectWith(request: ConsentRequest, params: Record<string, string>): string {
    const target = new URL(request.redirectUri);
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    if (request.state !== undefined) target.searchParams.set('state', request.state);
    // RFC 9207: the client can tell which authorization server answered.
    target.searchParams.set('iss', this.urls().issuerId);
    return target.href;
  }
}

/** What a verified token's AuthInfo carries (verifyAccessToken). */
export function accessOf(info: AuthInfo): OAuthAccess {
  return info.extra!.access as OAuthAccess;
}
