import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
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

/** How long the choice of organisation, after the password was checked, may wait. */
const CHOICE_TTL_MS = 5 * 60_000;

/** An organisation the password opens, when it opens several. */
export interface OrganisationChoice {
  userId: string;
  orgId: string;
}

export type SignInResult =
  | { ok: true; sessionId: string; user: User }
  /** Not signed in yet: the password is right for the email's users of several organisations; the person picks one, with `ticket` as proof. */
  | { ok: false; reason: 'choose'; choices: OrganisationChoice[]; ticket: string }
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
  private readonly ticketKey: Buffer;

  /**
   * `ticketKey` signs the choice of organisation between the password and the session; instances of
   * one deployment must share it (gateway.ts derives it from the cursor secret), a process alone may
   * let it be random.
   */
  constructor(store: Store, attempts: RateLimiter, ticketKey: Buffer = randomBytes(32)) {
    this.store = store;
    this.attempts = attempts;
    this.ticketKey = createHmac('sha256', ticketKey).update('gp-gateway sign-in choice').digest();
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
    // One email may be a user of several organisations, each with its own password
    // (docs/decisions.md#one-email-in-several-organisations): the password opens those it is right for.
    const accounts = (await this.store.findUsersForSignIn(account)).filter((a) => a.passwordHash !== null);
    if (!accounts.length) await verifyPassword(password, await (decoy ??= hashPassword('no account has this password')));
    // Checked side by side (scrypt runs on libuv's threads): an email with accounts in a few
    // organisations answers in about the time of one, so the time says little of how many it has.
    const verified = await Promise.all(accounts.map((found) => verifyPassword(password, found.passwordHash!)));
    const opened = accounts.filter((_, i) => verified[i]).map((found) => ({ user: found.user, passwordHash: found.passwordHash! }));
    if (!opened.length) return { ok: false, reason: 'refused' };
    await refund(buckets);
    if (opened.length === 1) return { ok: true, sessionId: await this.startSession(opened[0]!.user), user: opened[0]!.user };
    const choices = opened.map(({ user }) => ({ userId: user.id, orgId: user.orgId }));
    return { ok: false, reason: 'choose', choices, ticket: this.ticketFor(opened, Date.now() + CHOICE_TTL_MS) };
  }

  /**
   * Signs in as one of the users a ticket from signIn names: the ticket proves the password was
   * right for them a moment ago (it is signed, expires after CHOICE_TTL_MS, and is void once that
   * user's password changes). Null when it proves nothing for that user now.
   */
  async chooseOrganisation(ticket: string, userId: string): Promise<{ sessionId: string; user: User } | null> {
    const [payload = '', mac = ''] = ticket.split('.');
    const expected = this.mac(payload);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const { until, users } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { until: number; users: Record<string, string> };
    if (Date.now() > until || !Object.hasOwn(users, userId)) return null;
    const user = await this.store.findUser(userId);
    if (!user) return null;
    const current = (await this.store.findUsersForSignIn(user.email)).find((a) => a.user.id === userId);
    if (!current?.passwordHash || fingerprint(current.passwordHash) !== users[userId]) return null;
    return { sessionId: await this.startSession(user), user };
  }

  private ticketFor(opened: { user: User; passwordHash: string }[], until: number): string {
    const users = Object.fromEntries(opened.map(({ user, passwordHash }) => [user.id, fingerprint(passwordHash)]));
    const payload = Buffer.from(JSON.stringify({ until, users })).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.ticketKey).update(payload).digest();
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

/** A short digest of a password's hash: a ticket made before a password change is void after it. */
function fingerprint(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);
}

/**
 * The CSRF token of a session: derived from its id, which only the browser holds (HttpOnly cookie),
 * so a page of ours can carry it and another site cannot compute it. Distinct from the hash the
 * store keeps, so a token seen in a page reveals nothing stored.
 */
export function csrfTokenOf(sessionId: string): string {
  return createHash('sha256').update('gp-gateway dashboard csrf\u0000').update(sessionId).digest('base64url');
}
