/**
 * The credentials of `Authorization: Bearer <token>`. The scheme is case-insensitive and may be
 * followed by several spaces (RFC 9110 11.1, 11.4); the token itself is taken as sent. Null for any
 * other scheme, or none.
 */
export function bearerToken(header: string | undefined): string | null {
  return /^bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? null;
}
