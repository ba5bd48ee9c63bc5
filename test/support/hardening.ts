import type { Client } from 'pg';
import { raw } from 'sql-template-tag';
import type { Response } from 'supertest';

import { sql, type TestApp } from './test-app';

/** Every table with user data, and how a user's rows are found in it. */
const OWNED_ROWS: Record<string, string> = {
  users: `"id" = ?`,
  access_tokens: `"user_id" = ?`,
  alerts: `"user_id" = ?`,
  extension_settings: `"user_id" = ?`,
  folders: `"user_id" = ?`,
  tags: `"user_id" = ?`,
  payment_modes: `"user_id" = ?`,
  product_categories: `"user_id" = ?`,
  products: `"owner_id" = ?`,
  subscriptions: `"user_id" = ?`,
  subscription_tags: `"subscription_id" in (select "id" from "subscriptions" where "user_id" = ?)`,
  subscription_alerts: `"subscription_id" in (select "id" from "subscriptions" where "user_id" = ?)`,
  reminders: `"user_id" = ?`,
  webhook_endpoints: `"user_id" = ?`,
  webhook_events: `"user_id" = ?`,
  webhook_deliveries: `"event_id" in (select "id" from "webhook_events" where "user_id" = ?)`,
  webhook_delivery_attempts: `"delivery_id" in (select d."id" from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id" where e."user_id" = ?)`,
  inbound_webhook_tokens: `"user_id" = ?`,
  inbound_idempotency_keys: `"token_id" in (select "id" from "inbound_webhook_tokens" where "user_id" = ?)`,
  calendar_feeds: `"user_id" = ?`,
  notification_targets: `"user_id" = ?`,
  alert_targets: `"target_id" in (select "id" from "notification_targets" where "user_id" = ?)`,
  price_changes: `"subscription_id" in (select "id" from "subscriptions" where "user_id" = ?)`,
  payment_entries: `"user_id" = ?`,
  budgets: `"user_id" = ?`,
  households: `"owner_id" = ?`,
  household_members: `? in ("owner_id", "user_id")`,
  subscription_shares: `"subscription_id" in (select "id" from "subscriptions" where "user_id" = ?)`,
  subscription_splits: `"subscription_id" in (select "id" from "subscriptions" where "user_id" = ?)`,
  statement_proposals: `"user_id" = ?`,
  oidc_identities: `"user_id" = ?`,
  sign_in_codes: `"user_id" = ?`,
  statement_layouts: `"user_id" = ?`,
  password_resets: `"user_id" = ?`,
  two_factor: `"user_id" = ?`,
  two_factor_recovery_codes: `"user_id" = ?`,
  invitations: `? in ("created_by", "used_by")`,
};

/** How many rows of a table a user owns: a count background work on other users' data cannot move. */
export async function countOwnedRows(testApp: TestApp, table: string, userId: number): Promise<number> {
  const condition = OWNED_ROWS[table];
  if (!condition) throw new Error(`no ownership rule for table ${table}`);
  const [row] = await sql<{ n: string }>(testApp, `select count(*) as "n" from "${table}" where ${condition}`, [
    userId,
  ]);
  return Number(row.n);
}

/** Columns a read or a refused request may touch: a token's last use and its sliding expiry. */
const TOUCHED_ON_USE: Record<string, string[]> = {
  inbound_webhook_tokens: ['last_used_at'],
  access_tokens: ['expires_at', 'last_used_at'],
};

/** A row of `table` (aliased t) as JSON text, less the columns a use touches. */
function untouchedRow(table: string): string {
  return `(${(TOUCHED_ON_USE[table] ?? []).reduce((expression, column) => `${expression} - '${column}'`, 'to_jsonb(t)')})::text`;
}

/**
 * Every row a user owns, table by table, as JSON text less what a use writes: equal snapshots mean nothing of
 * theirs changed.
 */
export async function ownedRows(testApp: TestApp, userId: number): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const [table, condition] of Object.entries(OWNED_ROWS)) {
    const rows = await sql<{ row: string }>(
      testApp,
      `select ${untouchedRow(table)} as "row" from "${table}" t where ${condition} order by 1`,
      [userId],
    );
    snapshot[table] = rows.map((row) => row.row);
  }
  return snapshot;
}

/**
 * The links from a user's rows to rows another user owns, as "table.column → table" with their number (none
 * when the user's data refers only to their own rows and the global ones). Every foreign key between tables
 * with user data is followed, read from the schema: a new link is checked without a change here.
 */
export async function linksToOthersRows(
  testApp: TestApp,
  userId: number,
  otherId: number,
): Promise<Record<string, number>> {
  const keys = await sql<{ table: string; column: string; referenced: string; referencedColumn: string }>(
    testApp,
    `select c."conrelid"::regclass::text as "table", a."attname" as "column", c."confrelid"::regclass::text as "referenced", r."attname" as "referencedColumn"
       from pg_constraint c
       join pg_attribute a on a."attrelid" = c."conrelid" and a."attnum" = c."conkey"[1]
       join pg_attribute r on r."attrelid" = c."confrelid" and r."attnum" = c."confkey"[1]
      where c."contype" = 'f' and cardinality(c."conkey") = 1 and c."connamespace" = current_schema()::regnamespace
      order by 1, 2`,
  );
  const of = (table: string, owner: number) => OWNED_ROWS[table].replaceAll('?', String(Number(owner)));
  const counts = keys
    .filter((key) => key.table in OWNED_ROWS && key.referenced in OWNED_ROWS)
    .map(
      (key) =>
        `select '${key.table}.${key.column} → ${key.referenced}' as "link", count(*)::int as "n"
           from (select "${key.column}" as "target" from "${key.table}" where ${of(key.table, userId)}) t
          where t."target" in (select "${key.referencedColumn}" from "${key.referenced}" where ${of(key.referenced, otherId)})`,
    );
  const rows = await sql<{ link: string; n: number }>(testApp, counts.join(' union all '));
  return Object.fromEntries(rows.filter((row) => row.n > 0).map((row) => [row.link, row.n]));
}

/** The tables of OWNED_ROWS that exist in the schema but are not covered: a new table must be added there. */
export async function tablesWithoutOwnership(testApp: TestApp): Promise<string[]> {
  // data_versions holds counters only (how often each user's data changed), never read back by a client;
  // rates_refreshes is the service's own status of the exchange-rate refresh; oidc_logins are sign-ons under
  // way, of no account yet; instance_settings and audit_log are the instance's (the log names accounts by id
  // and e-mail, and outlives a deleted one); logos are images named by their content, which the products and
  // records that show them own, and logo_fetches are the catalogue's.
  const shared = new Set([
    'exchange_rates',
    'rates_refreshes',
    'mikro_orm_migrations',
    'rate_limits',
    'data_versions',
    'oidc_logins',
    'instance_settings',
    'audit_log',
    'logos',
    'logo_fetches',
  ]);
  const tables = await sql<{ table_name: string }>(
    testApp,
    `select "table_name" from information_schema.tables where "table_schema" = current_schema()`,
  );
  return tables.map((row) => row.table_name).filter((table) => !shared.has(table) && !(table in OWNED_ROWS));
}

/**
 * One digest of every row a user owns, in one statement: a refused request must leave every row as it was.
 * A row's version (ctid, xmin) changes with any write to it, so the versions stand for the whole rows at a
 * fraction of the cost of reading them; the tables whose rows a use touches are compared by content, less
 * those columns.
 */
export async function ownedRowsDigest(testApp: TestApp, userId: number): Promise<string> {
  const parts = Object.entries(OWNED_ROWS).map(([table, condition]) => {
    const where = condition.replaceAll('?', String(Number(userId)));
    const row = TOUCHED_ON_USE[table] ? untouchedRow(table) : `t.ctid::text || t.xmin::text`;
    // An order-free sum of row hashes: no sort, no string of every row.
    return `(select count(*)::text || ':' || coalesce(sum(hashtext(${row})::bigint), 0)::text from "${table}" t where ${where})`;
  });
  // A named statement: planning its nineteen subqueries on every call cost more than running them.
  const [digest] = await testApp.app.db.reads.rows<{ digest: string }>(
    raw(`select ${parts.join(" || '|' || ")} as "digest"`),
  );
  return digest.digest;
}

/** Row counts of every table with user data (a refused request must leave them all as they were). */
export async function rowCounts(testApp: TestApp, client?: Pick<Client, 'query'>): Promise<Record<string, number>> {
  const tables = Object.keys(OWNED_ROWS);
  const statement = `select ${tables.map((table) => `(select count(*) from "${table}") as "${table}"`).join(', ')}`;
  // A client of the caller's own, when the app's pool may hold connections a test has just killed.
  const [row] = client
    ? (await client.query<Record<string, string>>(statement)).rows
    : await sql<Record<string, string>>(testApp, statement);
  return Object.fromEntries(Object.entries(row).map(([table, count]) => [table, Number(count)]));
}

/** Stored secrets that must never appear in an answer: password and token hashes, signing secrets. */
export async function storedSecrets(testApp: TestApp): Promise<Array<{ kind: string; value: string }>> {
  const rows = await sql<{ kind: string; value: string }>(
    testApp,
    `select 'password hash' as "kind", "password_hash" as "value" from "users"
     union all select 'access token hash', "secret_hash" from "access_tokens"
     union all select 'inbound token hash', "token_hash" from "inbound_webhook_tokens"
     union all select 'calendar feed token hash', "token_hash" from "calendar_feeds"
     union all select 'password reset token hash', "token_hash" from "password_resets"
     union all select 'webhook secret', "secret" from "webhook_endpoints"
     union all select 'sealed notification url', "sealed_url" from "notification_targets"
     union all select 'sealed notification secret', "sealed_secret" from "notification_targets"
     union all select 'sign-in code hash', "code_hash" from "sign_in_codes"
     union all select 'sign-on PKCE verifier', "code_verifier" from "oidc_logins"
     union all select 'sealed two-factor secret', "sealed_secret" from "two_factor"
     union all select 'recovery code hash', "code_hash" from "two_factor_recovery_codes"`,
  );
  return rows.filter((row) => row.value);
}

/** The method and path of every route the app serves under /api/v1 and /webhook. */
export function restRoutes(testApp: TestApp): string[] {
  const routes: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          routes.push(`${method.toUpperCase()} ${prefix}${layer.route.path}`);
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, prefix + mount);
      }
    }
  };
  walk((testApp.app.express as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return [...new Set(routes.filter((route) => / \/(api\/v1|webhook)\//.test(route)))].sort();
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: unknown;
}

/** Answers collected for the property checks that run over all of them at the end. */
export class AnswerLog {
  readonly answers: Array<{ label: string; text: string }> = [];

  add(label: string, response: Response): Response {
    this.answers.push({ label, text: response.text ?? '' });
    return response;
  }
}
