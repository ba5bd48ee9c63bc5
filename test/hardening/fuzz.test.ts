import fc from 'fast-check';

import { addDays } from '../../src/platform/dates';
import { exportedAlert, exportedPayment, exportedRecord, uploadAccount } from '../support/account-imports';
import { linksToOthersRows, ownedRowsDigest } from '../support/hardening';
import { MINIMAL, postAddon, postSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';

/**
 * Every REST route fuzzed with fast-check, two ways: valid requests (as a client of the spec sends them,
 * on the user's live records) with one thing changed — a field's value made hostile, a field dropped,
 * repeated or added — and plain garbage (wrong types, huge and empty strings, unicode, NUL bytes,
 * injection strings, impossible dates, wrong content types, truncated multipart, odd ids and headers).
 * Never a 5xx, always JSON, and a refused request leaves every row of the user as it was (whole rows).
 * A report says how often each operation was reached, succeeded and was refused for its fields; each has
 * a floor. FUZZ_SEED replays a run; FUZZ_RUNS changes its size (6,000 requests by default).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
// 6,000 keep both CI passes within their time (about 2-3 minutes each); FUZZ_RUNS=10000 for a longer run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 6_000);
/** Floors scale with the run's size (they are set for 10,000 requests). */
const floor = (atTenThousand: number) => Math.max(1, Math.floor((atTenThousand * RUNS) / 10_000));

let testApp: TestApp;
let user: SignedUpUser;
let tokens: { create: string; manage: string };

/** Live rows of the user the valid requests work on; a row a request used up is replaced. */
const POOL_SIZE = 20;
const pools: Record<PoolName, number[]> = { subscription: [], alert: [], folder: [], tag: [], paymentMethod: [] };
type PoolName = 'subscription' | 'alert' | 'folder' | 'tag' | 'paymentMethod';
let unique = 0;

async function refill(pool: PoolName): Promise<number> {
  const caller = { userId: user.id, tokenId: null };
  const services = testApp.app.services;
  const name = `fuzz ${pool} ${++unique}`;
  switch (pool) {
    case 'subscription': {
      const record = await services.subscriptions.create(caller, {
        product: { id: 1 },
        type: 1,
        price: '9.99',
        currency: 'USD',
        billingType: 2,
        billingFrequency: 1,
        billingCycle: 3,
        // MINIMAL's anchor: no reminder of the record comes due while the fuzz runs, on any day.
        paymentDate: MINIMAL.payment_date,
        status: 1,
        recurring: 1,
        refundDays: 30,
      });
      return record.id;
    }
    case 'alert': {
      const alert = await services.alerts.create(caller, {
        alertName: name,
        timePeriod: 2,
        time: '09:00',
        alertCondition: 2,
        alertType: 2,
        timezone: 'UTC',
        alertSubsType: 1,
      });
      return alert.id;
    }
    case 'folder':
      return (await services.folders.create(caller, { name })).id;
    case 'tag':
      return (await services.tags.create(caller, { name })).id;
    default:
      return (await services.paymentModes.create(caller, { name, paymentType: 'Others' })).id;
  }
}

beforeAll(async () => {
  // The per-token limit is off here: the fuzzer is one client sending thousands of requests a minute. No
  // background work: a reminder of a fuzzed record coming due (or the sweep rolling one on) between a refused
  // request and its row check would move rows the request did not touch.
  testApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' }, { background: false });
  user = await signUp(testApp, 'Fuzzed');
  for (const pool of Object.keys(pools) as PoolName[]) {
    for (let i = 0; i < POOL_SIZE; i++) pools[pool].push(await refill(pool));
  }
  const create = await graphqlData(
    testApp,
    user.token,
    'mutation { createInboundWebhookToken(kind: CREATE) { token } }',
  );
  const manage = await graphqlData(
    testApp,
    user.token,
    'mutation { createInboundWebhookToken(kind: MANAGE) { token } }',
  );
  tokens = { create: create.createInboundWebhookToken.token, manage: manage.createInboundWebhookToken.token };
  console.log(`fuzz seed ${SEED}, ${RUNS} requests (replay with FUZZ_SEED=${SEED})`);
}, 120_000);

afterAll(() => testApp.close());

/** What a hostile or broken client puts in a field. */
const ordinary = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '0',
    '-1',
    '1.5',
    '1e309',
    'NaN',
    'Infinity',
    '9'.repeat(40),
    '-9'.repeat(20),
    'true',
    'null',
    '[]',
    '{}',
    '{"a":',
  ),
  fc.constantFrom(
    `' or 1=1 --`,
    `1; drop table subscriptions; --`,
    `"); select pg_sleep(5); --`,
    '${7*7}',
    '<script>alert(1)</script>',
    '%00',
    '../../etc/passwd',
    '\\x00',
    '$ne',
    '{"$gt": ""}',
  ),
  fc.constantFrom(
    '2025-02-30',
    '2025-13-01',
    '0000-00-00',
    '9999-99-99',
    '9999-12-31',
    '0001-01-01',
    '2025-1-1',
    '20250101',
    '2025-02-29',
    '1900-02-29',
    '2026-06-01T00:00:00Z',
    '+275760-09-13',
  ),
  fc.constantFrom('USD', 'usd', 'XXX', 'EURO', '€', 'Europe/Berlin', 'Mars/Olympus', 'UTC', '24:00', '09:60', '09:00'),
  fc.integer({ min: -5, max: 100 }).map(String),
);
// Now and then a value over the 16 KB header limit when in a query (and large in a body).
const nasty = fc.oneof({ arbitrary: ordinary, weight: 40 }, { arbitrary: fc.constant('x'.repeat(70_000)), weight: 1 });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Fields = Array<[string, string[]]>;

interface Route {
  /** The operation's name in the report. */
  name: string;
  method: Method;
  path: (id: string) => string;
  /** The pool the path's id comes from, when it has one. */
  pool?: PoolName | 'product' | 'category';
  /** A request the spec allows, as its client sends it; names below are any more the route reads. */
  valid: () => Record<string, string | string[]>;
  more?: string[];
  /** Rows the operation uses up when it succeeds (the id leaves its pool). */
  consumes?: boolean;
  /** How much more often than others the route is picked. */
  weight?: number;
  inbound?: 'created' | 'updated' | 'deleted' | 'refunded' | 'canceled';
}

const SUBSCRIPTION_MORE = [
  'folder_id',
  'alert_id',
  'category_id',
  'payment_mode_id',
  'tags[]',
  'note',
  'description',
  'discount_voucher',
  'refund_days',
  'timezone',
  'expiry_date',
  'contract_expiry',
  'ltdval_price',
  'rating',
  'id',
  'user_id',
  'currency_code',
];
const ALERT = {
  alert_name: 'fuzzed alert',
  time_period: '2',
  time: '09:00',
  alert_condition: '2',
  alert_type: '2',
  timezone: 'UTC',
  alert_subs_type: '1',
};
const named = () => ({ name: `fuzz name ${++unique}` });

const ROUTES: Route[] = [
  {
    name: 'login',
    method: 'POST',
    path: () => '/api/v1/auth/login',
    valid: () => ({ email: user.email, password: user.password }),
  },
  { name: 'token', method: 'GET', path: () => '/api/v1/auth/token', valid: () => ({}) },
  {
    name: 'create',
    method: 'POST',
    path: () => '/api/v1/subscriptions',
    valid: () => ({ ...MINIMAL, note: 'fuzz', rating: '6' }),
    more: SUBSCRIPTION_MORE,
    weight: 12,
  },
  {
    name: 'refund',
    method: 'POST',
    path: (id) => `/api/v1/subscriptions/${id}/refund`,
    pool: 'subscription',
    valid: () => ({}),
    consumes: true,
  },
  {
    name: 'cancel',
    method: 'POST',
    path: (id) => `/api/v1/subscriptions/${id}/cancel`,
    pool: 'subscription',
    valid: () => ({}),
    consumes: true,
  },
  {
    name: 'addon',
    method: 'POST',
    path: (id) => `/api/v1/subscriptions/${id}/addon`,
    pool: 'subscription',
    valid: () => ({
      type: '3',
      price: '2.50',
      price_type: 'USD',
      payment_date: MINIMAL.payment_date,
      status: '1',
      recurring: '1',
      refund_date: addDays(MINIMAL.payment_date, 9),
    }),
  },
  {
    name: 'list',
    method: 'GET',
    path: () => '/api/v1/subscriptions',
    valid: () => ({ length: '5', sort: 'price:desc,id', q: '' }),
    more: ['start', 'filters'],
  },
  { name: 'read', method: 'GET', path: (id) => `/api/v1/subscriptions/${id}`, pool: 'subscription', valid: () => ({}) },
  { name: 'upcoming', method: 'GET', path: () => '/api/v1/subscriptions/upcoming', valid: () => ({ days: '366' }) },
  {
    name: 'update',
    method: 'PUT',
    path: (id) => `/api/v1/subscriptions/${id}`,
    pool: 'subscription',
    valid: () => ({ price: '7.00', note: 'changed' }),
    more: SUBSCRIPTION_MORE,
    weight: 3,
  },
  {
    name: 'delete',
    method: 'DELETE',
    path: (id) => `/api/v1/subscriptions/${id}`,
    pool: 'subscription',
    valid: () => ({}),
    consumes: true,
  },
  {
    name: 'calendar',
    method: 'GET',
    path: () => '/api/v1/calendar',
    valid: () => ({ start: '2026-01-01', end: '2026-03-31' }),
  },
  {
    name: 'alert create',
    method: 'POST',
    path: () => '/api/v1/alerts',
    valid: () => ALERT,
    more: ['alert_contact', 'time_cycle'],
    weight: 2,
  },
  {
    name: 'alert list',
    method: 'GET',
    path: () => '/api/v1/alerts',
    valid: () => ({ length: '5', sort: 'is_default:desc' }),
    more: ['start', 'q'],
  },
  { name: 'alert read', method: 'GET', path: (id) => `/api/v1/alerts/${id}`, pool: 'alert', valid: () => ({}) },
  {
    name: 'alert update',
    method: 'PUT',
    path: (id) => `/api/v1/alerts/${id}`,
    pool: 'alert',
    valid: () => ({ alert_name: 'renamed', time_period: '3' }),
    more: Object.keys(ALERT),
  },
  {
    name: 'alert delete',
    method: 'DELETE',
    path: (id) => `/api/v1/alerts/${id}`,
    pool: 'alert',
    valid: () => ({}),
    consumes: true,
  },
  {
    name: 'product search',
    method: 'GET',
    path: () => '/api/v1/products/search',
    valid: () => ({ q: 'net' }),
    more: ['start', 'length'],
  },
  {
    name: 'product list',
    method: 'GET',
    path: () => '/api/v1/products',
    valid: () => ({ start: '10', length: '5' }),
    more: ['q'],
  },
  { name: 'product read', method: 'GET', path: (id) => `/api/v1/products/${id}`, pool: 'product', valid: () => ({}) },
  {
    name: 'category list',
    method: 'GET',
    path: () => '/api/v1/products/categories',
    valid: () => ({ sort: 'name:asc' }),
    more: ['q', 'start', 'length'],
  },
  {
    name: 'category read',
    method: 'GET',
    path: (id) => `/api/v1/products/categories/${id}`,
    pool: 'category',
    valid: () => ({}),
  },
  { name: 'settings read', method: 'GET', path: () => '/api/v1/settings/extension', valid: () => ({}) },
  {
    name: 'settings update',
    method: 'PUT',
    path: () => '/api/v1/settings/extension',
    valid: () => ({ notify_before: '4' }),
    more: ['auto_detect_subscriptions', 'browser_notifications', 'notify_before_days'],
  },
  ...(['folder', 'tag', 'paymentMethod'] as const).flatMap((pool): Route[] => {
    const path = { folder: '/api/v1/folders', tag: '/api/v1/tags', paymentMethod: '/api/v1/payments/methods' }[pool];
    const extra: Record<string, string> =
      pool === 'folder' ? { color: '#abc' } : pool === 'paymentMethod' ? { payment_type: 'PayPal' } : {};
    return [
      {
        name: `${pool} list`,
        method: 'GET',
        path: () => path,
        valid: () => ({ sort: 'name:desc' }),
        more: ['q', 'start', 'length'],
      },
      {
        name: `${pool} create`,
        method: 'POST',
        path: () => path,
        valid: () => ({ ...named(), ...extra }),
        more: ['is_default', 'description', 'expiry'],
      },
      { name: `${pool} read`, method: 'GET', path: (id) => `${path}/${id}`, pool, valid: () => ({}) },
      { name: `${pool} update`, method: 'PUT', path: (id) => `${path}/${id}`, pool, valid: () => named() },
      {
        name: `${pool} delete`,
        method: 'DELETE',
        path: (id) => `${path}/${id}`,
        pool,
        valid: () => ({}),
        consumes: true,
      },
    ];
  }),
  ...(['created', 'updated', 'deleted', 'refunded', 'canceled'] as const).map((event): Route => ({
    name: `inbound ${event}`,
    method: 'POST',
    path: (token) => `/webhook/user/data/${token}`,
    pool: event === 'created' ? undefined : 'subscription',
    inbound: event,
    valid: (): Record<string, string> =>
      event === 'created' ? { ...MINIMAL } : event === 'updated' ? { price: '3.00' } : {},
    more: Object.keys(MINIMAL),
    consumes: event === 'deleted' || event === 'refunded' || event === 'canceled',
    weight: event === 'created' ? 2 : 1,
  })),
];

const idArb = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    'abc',
    '99999999999999999999',
    '2147483648',
    '%00',
    '%E2%82%AC',
    '1%20or%201=1',
    '..%2F..',
  ),
  fc.nat({ max: 1_000_000 }).map(String),
);
const garbageEncodingArb = fc.constantFrom(
  'multipart',
  'urlencoded',
  'json',
  'broken-json',
  'text',
  'truncated-multipart',
  'no-boundary',
  'none',
);
const garbageAuthArb = fc.constantFrom('valid', 'valid', 'valid', 'none', 'garbage', 'basic', 'expired-shape');

/** Field name → one or more values (a repeated field), over the route's own names and some strangers. */
const garbageFieldsArb = (names: string[]) =>
  fc.array(
    fc.tuple(
      names.length
        ? fc.oneof(fc.constantFrom(...names), fc.constantFrom(...names), fc.string({ maxLength: 12 }))
        : fc.string({ maxLength: 12 }),
      fc.array(nasty, { minLength: 1, maxLength: 3 }),
    ),
    { maxLength: 8 },
  );

/** One change to a valid request: none, a field's value made hostile, a field dropped, repeated or added. */
const changeArb = fc.oneof(
  { weight: 7, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 7, arbitrary: fc.record({ kind: fc.constant('value' as const), pick: fc.nat(), value: nasty }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('repeat' as const), pick: fc.nat(), value: ordinary }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('add' as const), pick: fc.nat(), value: ordinary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('id' as const), id: idArb }) },
);

const weighted = ROUTES.flatMap((route) => Array<Route>(route.weight ?? 1).fill(route));
const requestArb = fc.record({
  route: fc.constantFrom(...weighted),
  valid: fc.boolean().chain((sure) => (sure ? fc.constant(true) : fc.boolean())),
  slot: fc.nat(),
  change: changeArb,
  garbage: fc.record({
    id: idArb,
    encoding: garbageEncodingArb,
    auth: garbageAuthArb,
    fields: garbageFieldsArb(SUBSCRIPTION_MORE),
  }),
});

function multipart(fields: Fields, boundary: string): string {
  const parts = fields.flatMap(([name, values]) =>
    values.map(
      (value) =>
        `--${boundary}\r\ncontent-disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${value}\r\n`,
    ),
  );
  return `${parts.join('')}--${boundary}--\r\n`;
}

function encode(
  method: Method,
  encoding: string,
  fields: Fields,
  headers: Record<string, string>,
): { query: string; body?: string } {
  if (method === 'GET' || method === 'DELETE') {
    const search = new URLSearchParams();
    for (const [name, values] of fields) for (const value of values) search.append(name, value);
    return { query: search.toString() };
  }
  const boundary = 'fuzzboundary';
  const flat = Object.fromEntries(fields.map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
  switch (encoding) {
    case 'multipart':
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      return { query: '', body: multipart(fields, boundary) };
    case 'truncated-multipart': {
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      const whole = multipart(fields, boundary);
      return { query: '', body: whole.slice(0, Math.max(1, Math.floor(whole.length / 2))) };
    }
    case 'no-boundary':
      headers['content-type'] = 'multipart/form-data';
      return { query: '', body: multipart(fields, boundary) };
    case 'urlencoded':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return {
        query: '',
        body: new URLSearchParams(
          fields.flatMap(([name, values]) => values.map((value): [string, string] => [name, value])),
        ).toString(),
      };
    case 'json':
      headers['content-type'] = 'application/json';
      return { query: '', body: JSON.stringify(flat) };
    case 'broken-json':
      headers['content-type'] = 'application/json';
      return { query: '', body: JSON.stringify(flat).slice(0, -1) || '{' };
    case 'text':
      headers['content-type'] = 'text/plain';
      return { query: '', body: JSON.stringify(flat) };
    default:
      return { query: '' };
  }
}

interface Tally {
  requests: number;
  succeeded: number;
  refusedForFields: number;
}

describe('fuzzing every REST route', () => {
  it(`never answers 5xx or non-JSON, changes no row when it refuses, and reaches every operation (${RUNS} requests)`, async () => {
    let count = 0;
    const statuses = new Map<number, number>();
    const report = new Map<string, Tally>(
      ROUTES.map((route) => [route.name, { requests: 0, succeeded: 0, refusedForFields: 0 }]),
    );
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ route, valid, slot, change, garbage }) => {
        count++;
        const headers: Record<string, string> = { accept: 'application/json' };
        const poolIds =
          route.pool === 'product' || route.pool === 'category'
            ? [1 + (slot % 20)]
            : route.pool
              ? pools[route.pool]
              : [];
        const used = poolIds.length ? poolIds[slot % poolIds.length] : 0;
        let id = route.inbound ? (route.inbound === 'created' ? tokens.create : tokens.manage) : String(used);
        let fields: Fields;
        let encoding: string;
        if (valid) {
          // As the spec's clients send it: multipart POST, URL-encoded PUT, JSON to the inbound webhook.
          encoding = route.inbound ? 'json' : route.method === 'PUT' ? 'urlencoded' : 'multipart';
          headers.authorization = `Bearer ${user.token}`;
          const base = route.valid();
          if (route.inbound && route.inbound !== 'created') base.id = String(used);
          fields = Object.entries(base).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]);
          const names = fields.map(([name]) => name);
          if (change.kind === 'value' && names.length)
            fields[change.pick % names.length] = [names[change.pick % names.length], [change.value]];
          if (change.kind === 'drop' && names.length) fields.splice(change.pick % names.length, 1);
          if (change.kind === 'repeat' && names.length) fields[change.pick % names.length][1].push(change.value);
          if (change.kind === 'add') {
            const more = route.more ?? ['stranger'];
            fields.push([more[change.pick % more.length], [change.value]]);
          }
          if (change.kind === 'id' && !route.inbound) id = change.id;
        } else {
          encoding = garbage.encoding;
          fields = garbage.fields;
          id = route.inbound ? (garbage.auth === 'valid' ? id : garbage.id) : garbage.id;
          if (garbage.auth === 'valid' && !route.inbound) headers.authorization = `Bearer ${user.token}`;
          if (garbage.auth === 'garbage') headers.authorization = 'Bearer ' + 'x|'.repeat(20);
          if (garbage.auth === 'basic') headers.authorization = 'Basic dXNlcjpwYXNz';
          if (garbage.auth === 'expired-shape') headers.authorization = `Bearer 999999|${'A'.repeat(40)}`;
        }
        if (route.inbound) {
          delete headers.authorization;
          headers['x-subledger-webhook-topic'] = `subscription.${route.inbound}`;
          if (!valid) headers['x-subledger-webhook-event'] = garbage.auth === 'valid' ? route.inbound : 'exploded';
        }
        const { query, body } = encode(route.method, encoding, fields, headers);
        const path = `${route.path(id)}${query ? `?${query}` : ''}`;

        const before = await ownedRowsDigest(testApp, user.id);
        const response = await fetch(`${testApp.baseUrl}${path}`, { method: route.method, headers, body });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const label = `${route.name}: ${route.method} ${path.slice(0, 200)} [${valid ? `valid, ${change.kind}` : `${encoding}, ${garbage.auth}`}] → ${response.status} ${text.slice(0, 300)}`;
        expect([label, response.status < 500]).toEqual([label, true]);
        if (response.status !== 204) {
          expect([label, response.headers.get('content-type') ?? '']).toEqual([
            label,
            expect.stringMatching(/^application\/json/),
          ]);
        }
        const parsed = (text ? JSON.parse(text) : null) as {
          status?: unknown;
          message?: unknown;
          errors?: unknown;
        } | null;
        const tally = report.get(route.name)!;
        tally.requests++;
        if (response.status < 300) {
          tally.succeeded++;
          if (route.consumes && used) poolIds.splice(poolIds.indexOf(used), 1, await refill(route.pool as PoolName));
        } else {
          if (response.status === 400 && parsed?.errors) tally.refusedForFields++;
          expect([label, parsed?.status, typeof parsed?.message]).toEqual([label, false, 'string']);
          expect([label, await ownedRowsDigest(testApp, user.id)]).toEqual([label, before]);
        }
      }),
      {
        seed: SEED,
        numRuns: RUNS,
        endOnFailure: true,
        // The counterexample can hold 70 KB strings: report the failing request's label, the seed and path only.
        reporter: (details) => {
          if (details.failed)
            throw new Error(
              `fuzz failed at run ${details.numRuns} (seed ${details.seed}, path ${details.counterexamplePath}): ${String((details.errorInstance as Error)?.message ?? details.errorInstance).slice(0, 3000)}`,
            );
        },
      },
    );
    const rows = [...report].map(
      ([name, tally]) =>
        `${name.padEnd(22)} ${String(tally.requests).padStart(5)} requests ${String(tally.succeeded).padStart(5)} succeeded ${String(tally.refusedForFields).padStart(5)} refused for fields`,
    );
    console.log(
      `fuzz: ${count} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([x], [y]) => x - y)))}\n${rows.join('\n')}`,
    );
    expect(count).toBe(RUNS);
    // Every operation was reached and succeeded; the creates were tried both ways in numbers.
    for (const [name, tally] of report) expect([name, tally.succeeded >= floor(20)]).toEqual([name, true]);
    expect(report.get('create')!.succeeded).toBeGreaterThanOrEqual(floor(500));
    expect(report.get('create')!.refusedForFields).toBeGreaterThanOrEqual(floor(500));
    for (const name of ['update', 'addon', 'alert create', 'inbound created'])
      expect([name, report.get(name)!.refusedForFields >= floor(20)]).toEqual([name, true]);
  }, 1_200_000);
});

/**
 * Account imports fuzzed the same way: a user B imports documents that name another user A's ids in every
 * place a document holds an id — as the document's own ids (of its folders, tags, payment methods,
 * categories, alerts, endpoints, household members and records), as its links (a record's folder, payment
 * method, category, alerts, product and main record, a share's payer and members, a budget's category and
 * alert), and as owner and bookkeeping fields on every object (settings.user, user_id, owner_id, created_by,
 * subscription_id, household_id) — or missing ids, or values of the wrong kind. Never a 5xx; A's rows and
 * settings never change; B's rows never link to A's; a refused import (or a dry run) changes none of B's.
 * FUZZ_IMPORT_RUNS changes the number of imports (120 by default).
 */
const IMPORT_RUNS = Number(process.env.FUZZ_IMPORT_RUNS ?? 120);
const MISSING_ID = 2_147_480_000;
/** The kinds of row a document declares with an id of its own. */
const DECLARED = [
  'folder',
  'tag',
  'paymentMode',
  'category',
  'alert',
  'endpoint',
  'member',
  'record',
  'addon',
] as const;
type Declared = (typeof DECLARED)[number];
/** The links a document holds, and the kind of row each names. */
const LINKS = {
  folderId: 'folder',
  paymentModeId: 'paymentMode',
  categoryId: 'category',
  alertId: 'alert',
  subId: 'record',
  payerMemberId: 'member',
  shareMemberId: 'member',
  budgetCategoryId: 'category',
  budgetAlertId: 'alert',
} as const satisfies Record<string, Declared>;
const SETTINGS_QUERY = '{ extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } }';

describe('fuzzing account imports', () => {
  let a: SignedUpUser;
  let b: SignedUpUser;
  /** A's rows of each kind a document can name, and A's settings as A reads them. */
  const theirs = {} as Record<Declared | 'product' | 'entry' | 'household', number>;
  let aSettings: unknown;

  beforeAll(async () => {
    [a, b] = [await signUp(testApp, 'Other'), await signUp(testApp, 'Importer')];
    const asA = (query: string) => graphqlData(testApp, a.token, query);
    await asA('mutation { updateExtensionSettings(input: {notifyBefore: 4}) { notifyBefore } }');
    theirs.folder = (await asA('mutation { createFolder(input: {name: "A folder"}) { id } }')).createFolder.id;
    theirs.tag = (await asA('mutation { createTag(input: {name: "A tag"}) { id } }')).createTag.id;
    theirs.paymentMode = (
      await asA('mutation { createPaymentMode(input: {name: "A card"}) { id } }')
    ).createPaymentMode.id;
    theirs.category = (
      await asA('mutation { createProductCategory(input: {name: "A category"}) { id } }')
    ).createProductCategory.id;
    theirs.alert = (
      await asA(
        'mutation { createAlert(input: {name: "A alert", timePeriod: 2, time: "09:00", condition: 2, channel: 2, timezone: "UTC", subjects: 1}) { id } }',
      )
    ).createAlert.id;
    const record = await postSubscription(testApp, a.token, {
      ...MINIMAL,
      brand_id: 'A private product',
      payment_date: monthsFromToday(1),
      folder_id: String(theirs.folder),
      payment_mode_id: String(theirs.paymentMode),
      category_id: String(theirs.category),
      alert_id: String(theirs.alert),
      'tags[]': String(theirs.tag),
    });
    expect(record.status).toBe(200);
    theirs.record = record.body.subscription.id;
    theirs.product = record.body.subscription.brand_id;
    const addon = await postAddon(testApp, a.token, theirs.record, { payment_date: monthsFromToday(1) });
    expect(addon.status).toBe(200);
    theirs.addon = addon.body.subscription.id;
    [{ id: theirs.entry }] = (await asA('{ paymentEntries { id } }')).paymentEntries;
    theirs.household = (await asA('mutation { createHousehold(name: "A home") { id } }')).createHousehold.id;
    theirs.member = (
      await asA('mutation { addHouseholdMember(input: {name: "A member"}) { id } }')
    ).addHouseholdMember.id;
    await asA(
      `mutation { shareSubscription(id: ${theirs.record}, input: {payerMemberId: ${theirs.member}, shares: [{memberId: ${theirs.member}}]}) { id } }`,
    );
    // Last, and never sent to: no event of A's is delivered while the imports run.
    theirs.endpoint = (
      await asA('mutation { createWebhookEndpoint(input: {url: "https://hooks.example.com/a"}) { id } }')
    ).createWebhookEndpoint.id;
    aSettings = await graphqlData(testApp, a.token, SETTINGS_QUERY);
    // B's settings row exists before the first import, so a refused import's "nothing changed" holds from the start.
    await graphqlData(testApp, b.token, SETTINGS_QUERY);
  }, 60_000);

  /** Values of the wrong kind where an id belongs. */
  const notAnId = fc.constantFrom<unknown>(
    0,
    -1,
    1.5,
    '7',
    '',
    null,
    true,
    [],
    {},
    [1],
    2 ** 31,
    -(2 ** 31) - 1,
    1e300,
    'x',
  );
  /** Where an id of the document comes from: its own id, A's, one nobody has, or a value of the wrong kind. */
  const placeArb = fc.record({
    roll: fc.nat({ max: 99 }),
    source: fc.constantFrom('theirs', 'theirs', 'missing', 'wrong'),
    wrong: notAnId,
  });
  const importArb = fc.record({
    /** How often (in 100) a link names something other than the document's own row. */
    hostility: fc.constantFrom(0, 0, 10, 30, 60),
    /** Each declared id: the document's own number, A's id of that kind, or a value of the wrong kind. */
    declared: fc.record(
      Object.fromEntries(
        DECLARED.map((kind) => [kind, fc.record({ roll: fc.nat({ max: 99 }), wrong: notAnId })]),
      ) as Record<Declared, fc.Arbitrary<{ roll: number; wrong: unknown }>>,
    ),
    links: fc.record(
      Object.fromEntries(Object.keys(LINKS).map((link) => [link, placeArb])) as Record<
        keyof typeof LINKS,
        typeof placeArb
      >,
    ),
    product: fc.record({
      source: fc.constantFrom('catalogue', 'theirs', 'theirs', 'missing', 'wrong'),
      wrong: notAnId,
      brandname: fc.boolean(),
    }),
    parts: fc.record({
      household: fc.boolean(),
      budget: fc.boolean(),
      sharing: fc.boolean(),
      addon: fc.boolean(),
      payments: fc.boolean(),
    }),
    notifyBefore: fc.integer({ min: 0, max: 365 }),
    dryRun: fc.nat({ max: 5 }).map((roll) => roll === 0),
    skipRefused: fc.boolean(),
  });
  type Plan = typeof importArb extends fc.Arbitrary<infer T> ? T : never;

  /** The document a plan describes: every object also carries A's owner and bookkeeping ids. */
  function documentOf(plan: Plan, run: number): Record<string, unknown> {
    const own = (kind: Declared) => 900_000 + DECLARED.indexOf(kind) * 1000 + run;
    const declared = Object.fromEntries(
      DECLARED.map((kind) => {
        const { roll, wrong } = plan.declared[kind];
        return [kind, roll < 50 ? own(kind) : roll < 97 ? theirs[kind] : wrong];
      }),
    ) as Record<Declared, unknown>;
    const link = (name: keyof typeof LINKS) => {
      const { roll, source, wrong } = plan.links[name];
      if (roll >= plan.hostility) return declared[LINKS[name]];
      return source === 'theirs' ? theirs[LINKS[name]] : source === 'missing' ? MISSING_ID : wrong;
    };
    const ofA = {
      user: a.id,
      user_id: a.id,
      owner_id: a.id,
      created_by: a.id,
      subscription_id: theirs.record,
      household_id: theirs.household,
    };
    const product = { catalogue: 1, theirs: theirs.product, missing: MISSING_ID, wrong: plan.product.wrong }[
      plan.product.source
    ];
    const main = {
      ...exportedRecord(),
      ...ofA,
      id: declared.record,
      product_name: `Imported ${run % 7}`,
      brandname: plan.product.brandname ? 'A brand' : null,
      brand_id: product,
      folder_id: link('folderId'),
      payment_mode_id: link('paymentModeId'),
      category_id: link('categoryId'),
      alert_id: link('alertId'),
      alert_ids: [link('alertId')],
      tags: ['A tag', 'B tag'],
      payments: plan.parts.payments ? [exportedPayment(10, { ...ofA, id: theirs.entry })] : [],
      price_history: [{ ...ofA, id: theirs.entry, effective_from: daysFromToday(-40), price: '12.50' }],
      sharing: plan.parts.sharing
        ? {
            ...ofA,
            payer_member_id: link('payerMemberId'),
            mode: 'equal',
            shares: [{ ...ofA, member_id: link('shareMemberId'), value: null }],
          }
        : null,
    };
    const addon = {
      ...exportedRecord(),
      ...ofA,
      id: declared.addon,
      product_name: `Imported ${run % 7}`,
      price: 2,
      sub_addon: 1,
      sub_id: link('subId'),
    };
    return {
      format: 'subledger-account',
      version: 1,
      ...ofA,
      profile: { ...ofA, id: a.id, email: a.email, name: 'A', baseCurrency: 'USD', timezone: 'UTC' },
      settings: { ...ofA, notifyBefore: plan.notifyBefore },
      folders: [{ ...ofA, id: declared.folder, name: 'B folder', color: null, isDefault: false }],
      tags: [{ ...ofA, id: declared.tag, name: 'B tag' }],
      paymentModes: [{ ...ofA, id: declared.paymentMode, name: 'B card' }],
      categories: [{ ...ofA, id: declared.category, name: 'B category' }],
      alerts: [{ ...exportedAlert(0, 'B alert'), ...ofA, id: declared.alert }],
      // Never enabled: no delivery of B's changes in the background.
      webhookEndpoints: [
        { ...ofA, id: declared.endpoint, url: 'https://hooks.example.com/b', events: [], enabled: false },
      ],
      budgets: plan.parts.budget
        ? [
            {
              ...ofA,
              id: theirs.category,
              categoryId: link('budgetCategoryId'),
              amount: '25.00',
              alertId: link('budgetAlertId'),
            },
          ]
        : [],
      household: plan.parts.household
        ? {
            ...ofA,
            id: theirs.household,
            name: 'B home',
            members: [{ ...ofA, id: declared.member, name: 'B', isOwner: true, canEdit: false }],
          }
        : null,
      subscriptions: plan.parts.addon ? [main, addon] : [main],
    };
  }

  /** A plan whose ids are all of the right kind and whose links name the document's own rows (A's ids or not). */
  const clean = (plan: Plan) =>
    DECLARED.every((kind) => plan.declared[kind].roll < 97) &&
    Object.values(plan.links).every((place) => place.roll >= plan.hostility) &&
    plan.product.source !== 'wrong';

  it(`never answers 5xx, never touches A's rows, never links B's rows to A's (${IMPORT_RUNS} imports)`, async () => {
    let run = 0;
    const outcomes = { imported: 0, refused: 0, dryRun: 0, clean: 0 };
    const aRows = await ownedRowsDigest(testApp, a.id);
    await fc.assert(
      fc.asyncProperty(importArb, async (plan) => {
        run++;
        if (clean(plan)) outcomes.clean++;
        const document = documentOf(plan, run);
        const bRows = await ownedRowsDigest(testApp, b.id);
        const bSettings = await graphqlData(testApp, b.token, SETTINGS_QUERY);
        const response = await uploadAccount(testApp, b.token, document, {
          dryRun: plan.dryRun,
          skipRefused: plan.skipRefused,
        });
        const label = `run ${run} ${JSON.stringify(plan)} → ${response.status} ${response.text.slice(0, 600)}`;
        expect([label, response.status < 500]).toEqual([label, true]);
        expect([label, response.headers['content-type']]).toEqual([label, expect.stringMatching(/^application\/json/)]);
        const errors = (response.body.errors ?? []) as Array<{ message: unknown; extensions?: { code?: unknown } }>;
        // A refusal is the file's fault, said as such; a file whose only foreign ids are its own rows' ids and
        // bookkeeping fields is not refused at all: those ids are the document's, its rows are made as B's.
        for (const error of errors)
          expect([label, typeof error.message, error.extensions?.code]).toEqual([label, 'string', 'BAD_USER_INPUT']);
        if (clean(plan)) expect([label, errors]).toEqual([label, []]);
        const settings = await graphqlData(testApp, b.token, SETTINGS_QUERY);
        if (errors.length > 0 || plan.dryRun) {
          outcomes[plan.dryRun && errors.length === 0 ? 'dryRun' : 'refused']++;
          expect([label, await ownedRowsDigest(testApp, b.id)]).toEqual([label, bRows]);
          expect([label, settings]).toEqual([label, bSettings]);
        } else {
          outcomes.imported++;
          expect([label, settings.extensionSettings.notifyBefore]).toEqual([label, plan.notifyBefore]);
        }
        expect([label, await linksToOthersRows(testApp, b.id, a.id)]).toEqual([label, {}]);
        expect([label, await ownedRowsDigest(testApp, a.id)]).toEqual([label, aRows]);
        expect([label, await graphqlData(testApp, a.token, SETTINGS_QUERY)]).toEqual([label, aSettings]);
      }),
      {
        seed: SEED,
        numRuns: IMPORT_RUNS,
        endOnFailure: true,
        reporter: (details) => {
          if (details.failed)
            throw new Error(
              `import fuzz failed at run ${details.numRuns} (seed ${details.seed}, path ${details.counterexamplePath}): ${String((details.errorInstance as Error)?.message ?? details.errorInstance).slice(0, 4000)}`,
            );
        },
      },
    );
    console.log(`import fuzz: ${JSON.stringify(outcomes)}`);
    // Both ways were taken in numbers: files restored into B's rows, and files refused.
    expect(outcomes.imported).toBeGreaterThanOrEqual(Math.max(1, Math.floor(IMPORT_RUNS / 10)));
    expect(outcomes.refused).toBeGreaterThanOrEqual(Math.max(1, Math.floor(IMPORT_RUNS / 10)));
    expect(outcomes.imported + outcomes.refused + outcomes.dryRun).toBe(IMPORT_RUNS);
    expect(outcomes.clean).toBeGreaterThanOrEqual(Math.max(1, Math.floor(IMPORT_RUNS / 20)));
  }, 600_000);
});
