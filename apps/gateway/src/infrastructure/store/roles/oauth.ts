import type { Connection } from './keys.ts';

/** What an OAuth token may do besides `/mcp` itself (docs/decisions.md#oauth-for-mcp). */
export type OAuthScope = 'read' | 'write';
export const OAUTH_SCOPES: readonly OAuthScope[] = ['read', 'write'];

/**
 * One app a user connected (an approved consent): the organisation, connection and scopes its tokens
 * act with, and the hashes of its current tokens. Tokens are never stored, only their sha256.
 */
export interface OAuthGrant {
  id: string;
  orgId: string;
  userId: string;
  /** The user's email; null once the user was removed (the grant then reaches nothing). */
  userEmail: string | null;
  clientId: string;
  /** The client's own name for itself, as it registered or published it. */
  clientName: string;
  /** `sandbox` or a connection of the organisation. */
  connectionId: string;
  scopes: OAuthScope[];
  /** The resource (RFC 8707) its tokens were issued for: the gateway's `/mcp` URL. */
  resource: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** An approved consent and its authorization code, before the code is exchanged. */
export interface NewOAuthGrant {
  orgId: string;
  userId: string;
  clientId: string;
  clientName: string;
  connectionId: string;
  scopes: OAuthScope[];
  resource: string;
  /** sha256 of the authorization code. */
  codeHash: string;
  /** PKCE S256 challenge the code's exchange must answer. */
  codeChallenge: string;
  redirectUri: string;
  codeExpiresAt: Date;
  at: Date;
}

/** The hashes of a new access and refresh token, and when each stops working. */
export interface OAuthTokenHashes {
  accessHash: string;
  accessExpiresAt: Date;
  refreshHash: string;
  refreshExpiresAt: Date;
}

/** A grant found by its access token, with the connection it acts on (null when that connection is gone). */
export interface OAuthAccess {
  grant: OAuthGrant;
  accessExpiresAt: string;
  connection: Connection | null;
}

/**
 * OAuth clients, grants and their tokens (docs/decisions.md#oauth-for-mcp). A grant's tokens reach
 * nothing once it is revoked or its user removed; every lookup reads the store, so a revocation
 * takes effect on the next request.
 */
export interface OAuthStore {
  /** Records a client registered by RFC 7591 (its metadata, without any secret). */
  saveOAuthClient(clientId: string, metadata: Record<string, unknown>, at: Date): Promise<void>;
  findOAuthClient(clientId: string): Promise<Record<string, unknown> | null>;

  createOAuthGrant(grant: NewOAuthGrant): Promise<OAuthGrant>;
  /** The unspent, unexpired code of this client, with what its exchange must match. */
  findOAuthCode(
    codeHash: string,
    clientId: string,
    at: Date,
  ): Promise<{ grant: OAuthGrant; codeChallenge: string; redirectUri: string } | null>;
  /**
   * Spends the code and gives its grant its first tokens, in one step. A code already spent revokes
   * its grant (OAuth 2.1 4.1.3: a replayed code means it leaked). Null when the code is unknown,
   * spent, expired, another client's, or its grant revoked.
   */
  redeemOAuthCode(codeHash: string, clientId: string, tokens: OAuthTokenHashes, at: Date): Promise<OAuthGrant | null>;
  /**
   * Replaces the grant's tokens if `refreshHash` is its current, unexpired refresh token: the old
   * refresh and access tokens stop working at once. The refresh token it replaced, presented
   * again, revokes the grant (a stolen token used after the client rotated it, or the reverse).
   */
  rotateOAuthRefreshToken(refreshHash: string, clientId: string, tokens: OAuthTokenHashes, at: Date): Promise<OAuthGrant | null>;
  /** The live grant whose current access token this is (expiry is the caller's to check). */
  findOAuthAccess(accessHash: string): Promise<OAuthAccess | null>;
  /** Records use; implementations may coalesce writes. */
  touchOAuthGrant(id: string, at: Date): Promise<void>;
  /** The organisation's connected apps at `at`: grants whose code was exchanged, neither revoked nor past their refresh token's expiry; newest first. */
  listOAuthGrants(orgId: string, at: Date): Promise<OAuthGrant[]>;
  /** Revokes the grant; null when the organisation has none with that id or it was revoked before. */
  revokeOAuthGrant(orgId: string, id: string, at: Date): Promise<OAuthGrant | null>;
  /** Revokes the grant of this client whose current access or refresh token has this hash (RFC 7009); whether one was. */
  revokeOAuthToken(tokenHash: string, clientId: string, at: Date): Promise<boolean>;
}
