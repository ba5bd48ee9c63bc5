import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random secret of `bytes` random bytes. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares a presented secret with a stored SHA-256 in constant time. */
export function matchesHash(secret: string, storedHashHex: string): boolean {
  const presented = Buffer.from(sha256Hex(secret), 'hex');
  const stored = Buffer.from(storedHashHex, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Access tokens travel as `<id>|<secret>`: the id finds the row, the secret proves possession. */
export function formatAccessToken(id: number, secret: string): string {
  return `${id}|${secret}`;
}

export function parseAccessToken(token: string): { id: number; secret: string } | null {
  const match = /^(\d{1,10})\|([A-Za-z0-9_-]{40,})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  return id > 0 && id <= 2_147_483_647 ? { id, secret: match[2] } : null;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1] : null;
}
