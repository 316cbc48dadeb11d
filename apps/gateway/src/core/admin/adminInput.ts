import { EMAIL_MAX_LENGTH, nameProblem, textProblem } from '@gp-gateway/protocol';
import { SCOPES, USER_ROLES, type Scope, type UserRole } from '../../infrastructure/store/store.ts';

/*
 * What an operator types, checked before the admin service acts on it (adminService.ts): each
 * check returns the value as stored, or throws an AdminError that says in plain words what to fix.
 */

/**
 * A request an operator can correct: the message says what is wrong in plain words, and `problems`
 * lists each of several at once (e.g. every bad object of a whitelist).
 */
export class AdminError extends Error {
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = []) {
    super(message);
    this.problems = problems;
  }
}

/** A role as given, lower-cased: one of USER_ROLES. */
export function checkRole(role: string): UserRole {
  const wanted = role.trim().toLowerCase();
  if (!(USER_ROLES as readonly string[]).includes(wanted)) throw new AdminError(`a role is ${USER_ROLES.join(' or ')}, not "${role}"`);
  return wanted as UserRole;
}

/**
 * A name as given, trimmed: not empty (`missing` says so), at most NAME_MAX_LENGTH characters (as
 * the forms say), and under the text rule API write bodies follow (the protocol's nameProblem: no
 * controls, format, bidi or separator characters), so a name shows in pages and the operator CLI as
 * what it is.
 */
export function nameOf(given: string, missing: string): string {
  const name = given.trim();
  if (!name) throw new AdminError(missing);
  const problem = nameProblem(name);
  if (problem !== null) throw new AdminError(`the name ${problem}`);
  return name;
}

/**
 * An email as stored: trimmed, lower-cased, one @ with something either side, at most
 * EMAIL_MAX_LENGTH characters, under the text rule. The message never repeats the text: it may hold
 * the very characters the rule keeps out of pages and terminals.
 */
export function emailOf(given: string): string {
  const email = given.trim().toLowerCase();
  const problem = textProblem(email);
  if (problem !== null) throw new AdminError(`the email ${problem}`);
  if (email.length > EMAIL_MAX_LENGTH) throw new AdminError(`the email must be at most ${EMAIL_MAX_LENGTH} characters`);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new AdminError(`"${email}" is not an email address`);
  return email;
}

/** Known scope names, lower-cased, without duplicates, in SCOPES order; at least one. */
export function checkScopes(names: readonly string[]): Scope[] {
  const wanted = names.map((s) => s.trim().toLowerCase()).filter(Boolean);
  const unknown = wanted.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new AdminError(`unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}; scopes are ${SCOPES.join(', ')}`);
  if (!wanted.length) throw new AdminError(`give at least one scope: ${SCOPES.join(', ')}`);
  return SCOPES.filter((s) => wanted.includes(s));
}

/** A GP company database id (INTERID): up to 5 letters or digits; GP shows them upper case. */
export function companyId(text: string): string {
  const id = text.trim().toUpperCase();
  if (!/^[A-Z0-9]{1,5}$/.test(id)) throw new AdminError(`"${text}" is not a GP company id: 1 to 5 letters or digits, e.g. TWO`);
  return id;
}
