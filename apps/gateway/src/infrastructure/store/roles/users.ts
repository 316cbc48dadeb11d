/** What a dashboard user may do: admins manage keys, connections and users; viewers only look. */
export type UserRole = 'admin' | 'viewer';
export const USER_ROLES: readonly UserRole[] = ['admin', 'viewer'];

/** A person who signs in to the dashboard of one organisation. */
export interface User {
  id: string;
  orgId: string;
  /** Lower-cased; unique within the organisation. One email may be a user of several organisations, one user in each. */
  email: string;
  role: UserRole;
  /** False until the user has set a password through a sign-in link. */
  hasPassword: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface NewUser {
  orgId: string;
  email: string;
  role: UserRole;
}

/** A dashboard session (its id is a secret the browser holds; the store keeps its sha256). */
export interface DashboardSession {
  user: User;
  createdAt: string;
  lastSeenAt: string;
}

/** Who changed what in an organisation, and from where: the dashboard's audit log. */
export interface AuditEntry {
  id: number;
  orgId: string;
  at: string;
  /** The user's email, or `operator CLI`. */
  actor: string;
  /** e.g. `key.created`, `key.revoked`, `connection.whitelist.set`. */
  action: string;
  /** What was acted on, e.g. a key id and name. */
  target: string;
  details: Record<string, unknown> | null;
  /** The client address of the change; null from the CLI. */
  address: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** Which entries of an organisation's audit log to list: each given field must match. */
export interface AuditFilter {
  /** Exactly this actor (a user's email, `operator CLI`, `API key key_…`). */
  actor?: string;
  /** Exactly this action, e.g. `key.rotated`. */
  action?: string;
  /** Entries at or after this time (ISO 8601, UTC). */
  since?: string;
  /** Entries before this time (ISO 8601, UTC). */
  before?: string;
  /** Entries older than the entry of this id (keyset paging: the last id of the page before). */
  beforeId?: number;
}

/** The dashboard's people: users, their sign-in links and sessions, and the audit log. */
export interface UsersStore {
  /** Null when a user of the organisation already has that email (whatever other organisations have). */
  createUser(user: NewUser): Promise<User | null>;
  findUser(id: string): Promise<User | null>;
  /** Every user with that email (one per organisation, oldest first), with their password's hash, for signing in. */
  findUsersForSignIn(email: string): Promise<{ user: User; passwordHash: string | null }[]>;
  listUsers(orgId: string): Promise<User[]>;
  /** Null when the organisation has no such user. */
  setUserRole(orgId: string, id: string, role: UserRole): Promise<User | null>;
  /** Removes the user with their sessions and links; false when the organisation has no such user. */
  removeUser(orgId: string, id: string): Promise<boolean>;
  /** Sets the password, ends every session of the user (a changed password signs out everywhere) and every sign-in link. */
  setUserPassword(id: string, passwordHash: string): Promise<void>;
  /** Records a sign-in, which ends the user's sign-in links: they are for when the password is not known. */
  recordSignIn(id: string, at: Date): Promise<void>;

  /**
   * A one-time link for the user to set a password (first sign-in, invitation, a forgotten
   * password). It is the user's only live link: making it ends every older one, so a link that
   * leaked earlier cannot take the account over once a newer one was given.
   */
  createSignInLink(link: { tokenHash: string; userId: string; expiresAt: Date; at: Date }): Promise<void>;
  /** Whether the link is unused and unexpired, without spending it: the page says so before asking for a password. */
  isSignInLinkLive(tokenHash: string, at: Date): Promise<boolean>;
  /** Spends the link if it is unused and unexpired, in one step; its user, or null. */
  useSignInLink(tokenHash: string, at: Date): Promise<User | null>;

  createDashboardSession(session: { idHash: string; userId: string; at: Date }): Promise<void>;
  findDashboardSession(idHash: string): Promise<DashboardSession | null>;
  touchDashboardSession(idHash: string, at: Date): Promise<void>;
  deleteDashboardSession(idHash: string): Promise<void>;
  deleteDashboardSessionsOf(userId: string): Promise<void>;
  /** Keeps a sealed message for the session's next page view (replacing any), or with null drops it. */
  setDashboardFlash(idHash: string, sealed: string | null): Promise<void>;
  /** The session's sealed message, removed as it is read: of two reads at once, one gets it. */
  takeDashboardFlash(idHash: string): Promise<string | null>;

  recordAudit(entry: NewAuditEntry): Promise<void>;
  /** The organisation's most recent entries first, those matching `filter` only. */
  listAudit(orgId: string, limit: number, filter?: AuditFilter): Promise<AuditEntry[]>;
}
