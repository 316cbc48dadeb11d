import { createHash } from 'node:crypto';
import { mintSessionId, sha256Hex } from '../../core/auth/secrets.ts';
import { hashPassword, passwordProblem, verifyPassword } from '../../core/auth/passwords.ts';
import type { RateLimiter, RatePolicy } from '../../core/limits/rateLimiter.ts';
import type { DashboardSession, Store, User } from '../../infrastructure/store/store.ts';
import { openFlash, sealFlash, type Flash } from './flash.ts';

/** A session nobody used for this long is over (docs/decisions.md#dashboard). */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** Last use is written at most this often per session: reading a page should not be a write. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Failed sign-ins allowed (docs/decisions.md#dashboard): five per account from one address in five
 * minutes, and twenty per address over all accounts (an office shares one). Only failures count: a
 * right password is never refused because someone else guessed wrong, from another address, and
 * an office's people signing in spend nothing.
 */
const PER_ACCOUNT_AND_ADDRESS = { limit: 5, windowSeconds: 300 };
const PER_ADDRESS = { limit: 20, windowSeconds: 300 };

export type SignInResult =
  | { ok: true; sessionId: string; user: User }
  | { ok: false; reason: 'refused' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

export type LinkResult = { ok: true; sessionId: string; user: User } | { ok: false; problem: string };

/** A hash to verify against when the account does not exist, so both cost the same time. */
let decoy: Promise<string> | null = null;

/**
 * Who is signed in to the dashboard: passwords checked against their scrypt hashes, sessions kept
 * in the store by the sha256 of their id (the id itself lives only in the browser's cookie), a new
 * session at every sign-in so a session id planted before it is worth nothing, sign-in rate-limited
 * per account and per address with one answer for every failure.
 */
export class DashboardAuth {
  private readonly store: Store;
  private readonly attempts: RateLimiter;

  constructor(store: Store, attempts: RateLimiter) {
    this.store = store;
    this.attempts = attempts;
  }

  async signIn(email: string, password: string, address: string): Promise<SignInResult> {
    const account = email.trim().toLowerCase();
    // Taken before the check (so that attempts at once cannot all pass it) and given back on success.
    const buckets: [string, RatePolicy][] = [
      [`sign-in:account:${account}:address:${address}`, PER_ACCOUNT_AND_ADDRESS],
      [`sign-in:address:${address}`, PER_ADDRESS],
    ];
    const refund = (spent: [string, RatePolicy][]) => Promise.all(spent.map(([bucket, policy]) => this.attempts.refund(bucket, policy)));
    for (const [i, [bucket, policy]] of buckets.entries()) {
      const decision = await this.attempts.take(bucket, policy);
      if (!decision.allowed) {
        await refund(buckets.slice(0, i));
        return { ok: false, reason: 'throttled', retryAfterSeconds: decision.retryAfterSeconds };
      }
    }
    const found = await this.store.findUserForSignIn(account);
    const hash = found?.passwordHash ?? (await (decoy ??= hashPassword('no account has this password')));
    const verified = await verifyPassword(password, hash);
    if (!found || !found.passwordHash || !verified) return { ok: false, reason: 'refused' };
    await refund(buckets);
    return { ok: true, sessionId: await this.startSession(found.user), user: found.user };
  }

  /** Whether a sign-in link can still be used (unused, unexpired, and the user's latest). */
  linkIsLive(token: string): Promise<boolean> {
    return this.store.isSignInLinkLive(sha256Hex(token), new Date());
  }

  /** Sets the password of a sign-in link's user (spending the link) and signs them in. */
  async acceptSignInLink(token: string, password: string): Promise<LinkResult> {
    const problem = passwordProblem(password);
    if (problem) return { ok: false, problem };
    const user = await this.store.useSignInLink(sha256Hex(token), new Date());
    if (!user) return { ok: false, problem: 'this link has expired or was already used; ask an admin of your organisation for a new one' };
    await this.store.setUserPassword(user.id, await hashPassword(password));
    return { ok: true, sessionId: await this.startSession(user), user };
  }

  /** The session of a cookie's id, or null when there is none or it has been idle too long. */
  async session(sessionId: string): Promise<DashboardSession | null> {
    const idHash = sha256Hex(sessionId);
    const session = await this.store.findDashboardSession(idHash);
    if (!session) return null;
    const idle = Date.now() - Date.parse(session.lastSeenAt);
    if (idle > SESSION_IDLE_MS) {
      await this.store.deleteDashboardSession(idHash);
      return null;
    }
    if (idle > TOUCH_EVERY_MS) await this.store.touchDashboardSession(idHash, new Date());
    return session;
  }

  signOut(sessionId: string): Promise<void> {
    return this.store.deleteDashboardSession(sha256Hex(sessionId));
  }

  /** Ends every session of the user, on every device. */
  signOutEverywhere(userId: string): Promise<void> {
    return this.store.deleteDashboardSessionsOf(userId);
  }

  /** Keeps `flash` for the session's next view of its page, sealed (flash.ts): a form's answer after its redirect. */
  keepFlash(sessionId: string, flash: Flash): Promise<void> {
    return this.store.setDashboardFlash(sha256Hex(sessionId), sealFlash(sessionId, flash));
  }

  /**
   * The message kept for `page`, removed as it is read, so that a reload shows it no more. One kept
   * for another page (the redirect's view lost to another tab's) is put back for that page.
   */
  async takeFlash(sessionId: string, page: string): Promise<Flash | null> {
    const idHash = sha256Hex(sessionId);
    const sealed = await this.store.takeDashboardFlash(idHash);
    const flash = sealed === null ? null : openFlash(sessionId, sealed);
    if (!flash) return null;
    if (flash.page === page) return flash;
    await this.store.setDashboardFlash(idHash, sealed);
    return null;
  }

  private async startSession(user: User): Promise<string> {
    const { id, idHash } = mintSessionId();
    const at = new Date();
    await this.store.createDashboardSession({ idHash, userId: user.id, at });
    await this.store.recordSignIn(user.id, at);
    return id;
  }
}

/**
 * The CSRF token of a session: derived from its id, which only the browser holds (HttpOnly cookie),
 * so a page of ours can carry it and another site cannot compute it. Distinct from the hash the
 * store keeps, so a token seen in a page reveals nothing stored.
 */
export function csrfTokenOf(sessionId: string): string {
  return createHash('sha256').update('gp-gateway dashboard csrf\u0000').update(sessionId).digest('base64url');
}
