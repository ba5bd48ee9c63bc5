import sql, { raw, type Sql } from 'sql-template-tag';

/** Who is calling: the user a valid access token belongs to, and that token. */
export interface Caller {
  userId: number;
  /** null when the caller acts through something other than an access token (an inbound webhook token). */
  tokenId: number | null;
  /** The user's data version when the request began (an access token's callers): what a kept answer is checked against. */
  dataVersion?: string;
}

/**
 * The one visibility rule of tables that mix global rows (no owner: the catalogue, the default alert and
 * categories) with users' own: a user sees the global ones and theirs, never another user's.
 */
export function globalOrOwn(
  userId: number,
  ownerProperty: 'user' | 'owner' = 'user',
): { $or: Array<Record<string, number | null>> } {
  return { $or: [{ [ownerProperty]: null }, { [ownerProperty]: userId }] };
}

/** globalOrOwn in SQL over an owner column (fixed text, never input) and the user's id (a value, or an expression). */
export function globalOrOwnSql(ownerColumn: string, userId: number | Sql): Sql {
  const owner = raw(ownerColumn);
  return sql`(${owner} is null or ${owner} = ${userId})`;
}
