import sql, { raw, type Sql } from 'sql-template-tag';

/** Who is calling: the user a valid access token belongs to, and that token. */
export interface Caller {
  userId: number;
  /** null when the caller acts through something other than an access token (an inbound webhook token). */
  tokenId: number | null;
  /** A READ_ONLY personal access token: the transports refuse its writes (rest-facade/auth.ts, graphql/read-only.ts). */
  readOnly?: boolean;
  /** A personal access token rather than a sign-in's session. */
  personal?: boolean;
  /** The user's data version when the request began (an access token's callers): what a kept answer is checked against. */
  dataVersion?: string;
  /**
   * Set while the token is known to this process but not yet confirmed live for this request: a read may run
   * the check in its own statement instead of a round trip of its own (see PendingTokenCheck).
   */
  pending?: PendingTokenCheck;
  /**
   * The settings of the user `userId` names, read by the token check when it ran alone (none when it ran within
   * another read): what "today", report periods and money totals of this request go by, without a read of their
   * own. A caller made to act as another user (a household's owner) has none of them.
   */
  settings?: UserSettings;
}

/** The user's settings that money totals, "today" and the way dates are written depend on. */
export interface UserSettings {
  timezone: string;
  baseCurrency: string;
  country: string;
}

/** Whether the caller's token is live: known already, or confirmed now by its pending check run alone. */
export async function isConfirmed(caller: Caller): Promise<boolean> {
  return !caller.pending || caller.pending.confirm();
}

/** What the token check of a caller's request reads: one row while the token is live, none otherwise. */
export interface TokenCheckRow {
  data_version: string;
  /** Whether this use is to be written (its last-used time, a session's expiry). */
  renew: boolean;
}

/**
 * A caller's token check still to run: alone (`confirm`), or as part of a read's statement, which selects
 * `sql` (one TokenCheckRow while the token is live) and hands its row, or undefined, to `settle`. Either
 * clears `pending` and sets the caller's data version, or answers false: the token is revoked or expired.
 */
export interface PendingTokenCheck {
  readonly sql: Sql;
  confirm(): Promise<boolean>;
  settle(row: TokenCheckRow | undefined): Promise<boolean>;
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
