/**
 * Which connection and company a request goes to (docs/api.md#routing-headers, docs/api.md#modes-and-the-sandbox), decided from the key and the
 * routing headers as sent. REST, MCP and (later) writes all route through here.
 */
import type { KeyMode } from '../../infrastructure/store/store.ts';
import type { ApiKey, Connection } from '../../infrastructure/store/store.ts';
import { SANDBOX_CONNECTION_ID } from '../../infrastructure/store/store.ts';
import { ApiError } from '../../errors/apiError.ts';

/** Every organisation's `sandbox` connection is served by one built-in agent, registered under this key. */
export const SANDBOX_AGENT_KEY = 'sandbox';

/** Same words whether the connection exists in another organisation or nowhere (docs/api.md#x-connection-id). */
const UNKNOWN_CONNECTION = 'no such connection';
const UNKNOWN_COMPANY = 'the connection has no such company';

const issue = (path: string, message: string) => ApiError.validation([{ path, message }]);

/** The router key of a connection's agents: every organisation's sandbox shares the built-in agent. */
export function agentKeyOf(connection: Connection): string {
  return connection.id === SANDBOX_CONNECTION_ID ? SANDBOX_AGENT_KEY : connection.id;
}

/** The routing headers of a request as sent (docs/api.md#routing-headers): which connection, and which company inside it. */
export interface RouteHeaders {
  connectionId: string | undefined;
  company: string | undefined;
}

/**
 * The connection a key of this mode reaches with these headers, if any could be: authentication
 * reads it along with the key. Test keys reach only their organisation's sandbox (docs/api.md#modes-and-the-sandbox).
 */
export function connectionToRead(headers: RouteHeaders, mode: KeyMode): string | null {
  if (mode === 'test') return SANDBOX_CONNECTION_ID;
  const id = headers.connectionId;
  return id === undefined || id === SANDBOX_CONNECTION_ID ? null : id;
}

/**
 * Checks X-Connection-Id for a key (docs/api.md#x-connection-id, docs/api.md#modes-and-the-sandbox) against the connection read with the key
 * (connectionToRead): test keys reach only their organisation's sandbox, with or without the header;
 * live keys must name a live connection of their organisation.
 */
export function resolveConnection(headers: RouteHeaders, key: ApiKey, read: Connection | null): Connection {
  const id = headers.connectionId;
  if (key.mode === 'test') {
    if (id !== undefined && id !== SANDBOX_CONNECTION_ID) throw issue('X-Connection-Id', UNKNOWN_CONNECTION);
    if (read?.id !== SANDBOX_CONNECTION_ID) throw new ApiError('INTERNAL_ERROR', 'The organisation has no sandbox connection.');
    return read;
  }
  if (id === undefined) throw issue('X-Connection-Id', 'the header is required');
  if (id === SANDBOX_CONNECTION_ID || read?.id !== id) throw issue('X-Connection-Id', UNKNOWN_CONNECTION);
  return read;
}

/** The company a request names (X-Company or the connection's default), not yet checked against the agent. */
export function requestedCompany(headers: RouteHeaders, connection: Connection, companyScoped: boolean): string | null {
  const company = headers.company;
  if (!companyScoped) {
    if (company !== undefined) throw issue('X-Company', 'this object is not read from a company; leave the header out');
    return null;
  }
  const chosen = company ?? connection.defaultCompany;
  if (!chosen) throw issue('X-Company', 'the header is required: this connection has no default company');
  if (chosen.length > 5) throw issue('X-Company', UNKNOWN_COMPANY);
  return chosen.toUpperCase();
}

/** Checks the company against the list the connection's agent reported (GP company ids are case-insensitive). */
export function checkCompany(company: string | null, known: readonly { id: string }[]): void {
  if (company !== null && !known.some((c) => c.id.toUpperCase() === company)) throw issue('X-Company', UNKNOWN_COMPANY);
}
