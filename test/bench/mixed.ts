import { Client } from 'pg';

import { formatAccessToken, randomSecret, sha256Hex } from '../../src/auth/secrets';
import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { prng } from '../support/statement-generator';
import { type BenchRequest, CREATE_FORM, GRAPHQL_PAGE, GRAPHQL_SPENDING, LIST_PATH, UPCOMING_PATH } from './requests';

/** A user of the mixed scenario: a bearer token, and the records and payment entries its writes pick from. */
export interface MixedUser {
  id: number;
  token: string;
  records: number[];
  entries: number[];
}

/** The users the mix acts as (seeded users with 100 records each). */
export const MIXED_USERS = 200;

type Kind = 'list' | 'upcoming' | 'page' | 'spending' | 'create' | 'update' | 'paid';

/**
 * What each run of 20 requests is, in turn: 17 reads (the REST list, REST upcoming, the GraphQL page and
 * spending summary) and 3 writes (a create, a price update, a payment marked paid), the writes spread out.
 */
export const MIX_SCHEDULE: readonly Kind[] = [
  'list',
  'upcoming',
  'page',
  'spending',
  'list',
  'create',
  'upcoming',
  'page',
  'spending',
  'list',
  'upcoming',
  'page',
  'update',
  'spending',
  'list',
  'upcoming',
  'page',
  'spending',
  'list',
  'paid',
];

/**
 * The seeded users with 100 records each, MIXED_USERS of them, each given an access token as the service
 * issues one (a row with the SHA-256 of a random secret and the default 30-day expiry; the client holds
 * `<id>|<secret>`): logging 200 users in would only measure password hashing.
 */
export async function mixedUsers(databaseUrl: string): Promise<MixedUser[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: users } = await client.query<{ id: number; records: number[]; entries: number[] }>(
      `select u."id",
              array(select s."id" from "subscriptions" s where s."user_id" = u."id" and s."deleted_at" is null order by s."id") as "records",
              array(select e."id" from "payment_entries" e where e."user_id" = u."id" order by e."id") as "entries"
         from "users" u
        where u."email" ~ '^bench[0-9]+@example\\.com$' and exists (select 1 from "payment_entries" e where e."user_id" = u."id")
        order by u."id" limit $1`,
      [MIXED_USERS],
    );
    if (users.length < MIXED_USERS) throw new Error(`only ${users.length} seeded users with payment entries`);
    const secrets = users.map(() => randomSecret(30));
    const { rows: tokens } = await client.query<{ id: number; user_id: number }>(
      `insert into "access_tokens" ("user_id", "secret_hash", "expires_at")
       select t."user_id", t."secret_hash", (now() at time zone 'utc') + interval '30 days'
         from unnest($1::int[], $2::text[]) with ordinality t("user_id", "secret_hash", "n") order by t."n"
       returning "id", "user_id"`,
      [users.map((user) => user.id), secrets.map(sha256Hex)],
    );
    return users.map((user, index) => {
      const token = tokens.find((row) => row.user_id === user.id)!;
      return { ...user, token: formatAccessToken(token.id, secrets[index]) };
    });
  } finally {
    await client.end();
  }
}

/** One turn of the mix: the kind from MIX_SCHEDULE, a random user, and one of its records, entries and prices. */
interface Turn {
  kind: Kind;
  user: MixedUser;
  record: number;
  entry: number;
  price: string;
}

function turns(users: readonly MixedUser[], seed: number): () => Turn {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  let slot = 0;
  return () => {
    const user = pick(users);
    return {
      kind: MIX_SCHEDULE[slot++ % MIX_SCHEDULE.length],
      user,
      record: pick(user.records),
      entry: pick(user.entries),
      price: (1 + random() * 60).toFixed(2),
    };
  };
}

const SEED = 42;
const FORM = 'application/x-www-form-urlencoded';

const graphql = (query: string) => JSON.stringify({ query });

/** The mix as the server gets it: each request with its user's token. */
export function serverMix(users: readonly MixedUser[]): () => BenchRequest {
  const next = turns(users, SEED);
  return () => {
    const { kind, user, record, entry, price } = next();
    const auth = { authorization: `Bearer ${user.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    switch (kind) {
      case 'list':
        return { method: 'GET', path: LIST_PATH, headers: auth };
      case 'upcoming':
        return { method: 'GET', path: UPCOMING_PATH, headers: auth };
      case 'page':
        return { method: 'POST', path: '/graphql', headers: json, body: graphql(GRAPHQL_PAGE) };
      case 'spending':
        return { method: 'POST', path: '/graphql', headers: json, body: graphql(GRAPHQL_SPENDING) };
      case 'create':
        return {
          method: 'POST',
          path: '/api/v1/subscriptions',
          headers: { ...auth, 'content-type': FORM },
          body: CREATE_FORM,
        };
      case 'update':
        return {
          method: 'PUT',
          path: `/api/v1/subscriptions/${record}`,
          headers: { ...auth, 'content-type': FORM },
          body: `price=${price}`,
        };
      case 'paid':
        return {
          method: 'POST',
          path: '/graphql',
          headers: json,
          body: graphql(
            `mutation { markPaid(input: {id: "${toGlobalId('PaymentEntry', entry)}"}) { paymentEntry { id status paidAmount { amount currency } paidAt } } }`,
          ),
        };
    }
  };
}

/** The same mix, in the same order, as the ceiling's requests. */
export function ceilingMix(users: readonly MixedUser[]): () => BenchRequest {
  const next = turns(users, SEED);
  return () => {
    const { kind, user, record, entry, price } = next();
    switch (kind) {
      case 'list':
      case 'upcoming':
      case 'page':
      case 'spending':
        return { method: 'GET', path: `/${kind}?user=${user.id}` };
      case 'create':
        return {
          method: 'POST',
          path: `/create?user=${user.id}`,
          headers: { 'content-type': FORM },
          body: CREATE_FORM,
        };
      case 'update':
        return {
          method: 'POST',
          path: `/update?user=${user.id}&id=${record}`,
          headers: { 'content-type': FORM },
          body: `price=${price}`,
        };
      case 'paid':
        return { method: 'POST', path: `/paid?user=${user.id}&entry=${entry}` };
    }
  };
}

/**
 * One round of the schedule sent one by one, each answer checked (a GraphQL error comes with status 200, which
 * the load generator counts as a success): the mix is known to work before it is measured.
 */
export async function checkMix(base: string, next: () => BenchRequest): Promise<void> {
  for (let i = 0; i < MIX_SCHEDULE.length; i++) {
    const request = next();
    const response = await fetch(`${base}${request.path}`, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
    });
    const text = await response.text();
    if (!response.ok || /^\{"errors"|"errors":\[/.test(text))
      throw new Error(`mixed ${request.method} ${request.path}: ${response.status} ${text.slice(0, 300)}`);
  }
}
