import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Kind, parse } from 'graphql';
import { type CustomTypesConfig, Pool, type PoolClient, type QueryResult, types } from 'pg';
import sql, { type Sql } from 'sql-template-tag';

import { LedgerRepository } from '../../src/ledger/ledger.repository';
import { endOfMonth, todayIn } from '../../src/platform/dates';
import type { DataSource } from '../../src/platform/db/data-source';
import type { DirectReads } from '../../src/platform/db/direct-reads';
import { VARCHAR_AS_BYTES } from '../../src/platform/db/statements';
import { SelectionReader } from '../../src/platform/graphql/written-answers';
import { summarizeSpending } from '../../src/spending/spending';
import { SpendingRepository } from '../../src/spending/spending.repository';
import { paidSumsSql, spendingSumsSql } from '../../src/spending/spending.sql';
import { occurrencesBetween } from '../../src/subscriptions/payment-dates';
import { PriceHistoryRepository } from '../../src/subscriptions/price-history.repository';
import { compileRecordPage, type RecordPageSelection } from '../../src/subscriptions/record-page.sql';
import { DEFAULT_SORT, type ListQuery } from '../../src/subscriptions/subscription.list';
import { scheduleOf, type SubscriptionRow } from '../../src/subscriptions/subscription.record';
import { SubscriptionRepository } from '../../src/subscriptions/subscription.repository';
import { GRAPHQL_PAGE } from './requests';

/** The REST list's query (`?length=100&sort=payment_date:asc`). */
const LIST_QUERY: ListQuery = {
  start: 0,
  length: 100,
  sort: [{ field: 'payment_date', direction: 'asc' }],
  filters: {},
};
/** The GraphQL page's (`first: 100`), in the GraphQL page's default order. */
const PAGE_QUERY: ListQuery = { ...LIST_QUERY, sort: DEFAULT_SORT };
/** The bench's selection of the GraphQL page (GRAPHQL_PAGE), compiled as the server compiles it. */
const PAGE_SELECTION = compiledPage(GRAPHQL_PAGE);
/** The upcoming window the bench asks for (`?days=30`). */
export const UPCOMING_DAYS = 30;

/** The selection of the page's root field in `document` (a query of `subscriptions` alone), as the server compiles it. */
function compiledPage(document: string): RecordPageSelection {
  const [operation] = parse(document).definitions;
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('the page is one operation');
  const reader = new SelectionReader(new Map());
  const [field] = reader.fieldsOf(operation.selectionSet, 'Query') ?? [];
  const selection = field && compileRecordPage(field, reader);
  if (!selection) throw new Error('the server does not write this page in SQL');
  return selection;
}

/**
 * Repositories that build their statements inline, given reads that take the statement instead of running it:
 * `taken` reads what a method would have run (repositories hand it over before their first await).
 */
let lastTaken: Sql | undefined;
const taking = {
  rows(query: Sql) {
    lastTaken = query;
    return Promise.resolve([]);
  },
} as unknown as DirectReads;
const subscriptions = new SubscriptionRepository(undefined as unknown as DataSource, taking);
const spending = new SpendingRepository(undefined as unknown as DataSource, taking);
const priceHistory = new PriceHistoryRepository(undefined as unknown as DataSource);

function taken(call: () => unknown): Sql {
  lastTaken = undefined;
  // What the method does with the (empty) rows is of no matter here.
  Promise.resolve(call()).catch(() => undefined);
  if (!lastTaken) throw new Error('the repository ran no statement');
  return lastTaken;
}

/**
 * The statement of each read, exactly as the server's repositories build it (the ceiling runs the very SQL,
 * so a ratio is never won by a leaner statement on one side or a slower one on the other). A statement that
 * writes the answer's JSON, in parts read as bytes or as one text, is taken as the answer as it stands (see
 * answerOf): a read the server moves to such a statement moves here by changing its line.
 */
export const STATEMENTS = {
  /** SubscriptionRepository.pageJson: the REST list, each item's JSON written by the database. */
  list: (userId: number, now: Date) => taken(() => subscriptions.pageJson(userId, LIST_QUERY, now)),
  /** SubscriptionRepository.pageAnswer: the GraphQL page as the database writes the bench's selection of it. */
  page: (userId: number, now: Date) => taken(() => subscriptions.pageAnswer(userId, PAGE_SELECTION, PAGE_QUERY, now)),
  /** SubscriptionRepository.upcomingJson: the REST upcoming, each item's JSON written by the database. */
  upcoming: (userId: number, now: Date) => taken(() => subscriptions.upcomingJson(userId, UPCOMING_DAYS, now)),
  /** The calendar's records (SubscriptionReads.calendar for 2026). */
  calendar: (userId: number) => taken(() => subscriptions.active(userId, { anchoredBy: '2026-12-31' })),
  /** The owner's zone and base currency a spending summary's period comes from. */
  ownerSettings: (userId: number) => taken(() => subscriptions.ownerSettings(userId)),
  /** Spending by category over [from, to]: as planned, as paid, and the budgets. */
  plannedSums: (userId: number, from: string, to: string) =>
    spendingSumsSql('CATEGORY', { kind: 'own', userId }, userId, from, to),
  paidSums: (userId: number, from: string, to: string) =>
    paidSumsSql('CATEGORY', { kind: 'own', userId }, userId, from, to),
  budgets: (userId: number) => taken(() => spending.budgets(userId)),
} satisfies Record<string, (userId: number, ...rest: never[]) => Sql>;

/** PostgreSQL's json and jsonb types, which the ceiling's pool keeps as text (pg would parse them). */
const JSON_OIDS = [114, 3802];
/** Text, json, jsonb: a statement answering one such column in one row answers the JSON text itself. */
const TEXT_OIDS = [25, ...JSON_OIDS];

/**
 * The answer's JSON: the parts a statement writes (its `json` column, a row each, read as bytes) as they stand,
 * a statement's own text answer as it stands, else the rows stringified.
 */
function answerOf(result: QueryResult): string | Buffer {
  if (result.rows.length > 0 && result.fields.some((field) => field.name === 'json'))
    return Buffer.concat((result.rows as Array<{ json: Buffer }>).map((row) => row.json));
  if (result.fields.length === 1 && TEXT_OIDS.includes(result.fields[0].dataTypeID) && result.rows.length === 1)
    return result.rows[0][result.fields[0].name] as string;
  return JSON.stringify(result.rows);
}

/**
 * The ceiling: the same work with nothing in between: node:http, pg running the server's own statements
 * (STATEMENTS), prepared by name as the server's hot reads are, dates kept as strings (pg's Date parsing alone
 * halves throughput), JSON.stringify, and the payment dates expanded in plain code; the writes with plain `pg`,
 * each in one transaction: a create and an update that write the record and its outbox rows, and a payment
 * marked paid with the ledger's own statements.
 */
async function startCeiling(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  for (const oid of [1082, 1114, 1184]) types.setTypeParser(oid, (value) => value);
  const pool = new Pool({
    connectionString: databaseUrl,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        JSON_OIDS.includes(oid)
          ? (value: string) => value
          : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
    },
  });
  const names = new Map<string, string>();
  const run = (query: Sql, types?: CustomTypesConfig): Promise<QueryResult> => {
    let name = names.get(query.text);
    if (name === undefined)
      names.set(query.text, (name = `c_${createHash('sha1').update(query.text).digest('hex').slice(0, 20)}`));
    return pool.query({ name, text: query.text, values: query.values, ...(types ? { types } : {}) });
  };
  const server: Server = createServer((req, res) => {
    answer(req).then(
      (body) => {
        if (body === null) res.writeHead(404).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      },
      (error: unknown) => {
        console.error('ceiling:', error);
        res.writeHead(500).end();
      },
    );
  });
  async function answer(req: IncomingMessage): Promise<string | Buffer | null> {
    const url = new URL(req.url ?? '/', 'http://ceiling');
    const userId = Number(url.searchParams.get('user'));
    const post = req.method === 'POST';
    switch (url.pathname) {
      case '/list':
        return answerOf(await run(STATEMENTS.list(userId, new Date()), VARCHAR_AS_BYTES));
      case '/page':
        return answerOf(await run(STATEMENTS.page(userId, new Date()), VARCHAR_AS_BYTES));
      case '/upcoming':
        return answerOf(await run(STATEMENTS.upcoming(userId, new Date()), VARCHAR_AS_BYTES));
      case '/calendar': {
        const rows = (await run(STATEMENTS.calendar(userId))).rows as Row[];
        // Megabytes of plain work in the load generator's own process: none for a client gone meanwhile (the
        // end of a measurement), or it would run on into the next scenario's.
        if (req.socket.destroyed) return '';
        const entries: unknown[] = [];
        for (const row of rows)
          for (const date of occurrencesBetween(scheduleOf(row), '2026-01-01', '2026-12-31'))
            entries.push({ ...row, payment_date: date });
        return JSON.stringify(entries);
      }
      case '/spending':
        return JSON.stringify(await spendingSummary(userId));
      case '/create':
        return post ? JSON.stringify(await create(userId, new URLSearchParams(await text(req)))) : null;
      case '/update':
        return post
          ? JSON.stringify(
              await update(userId, Number(url.searchParams.get('id')), new URLSearchParams(await text(req))),
            )
          : null;
      case '/paid':
        return post ? JSON.stringify(await markPaid(userId, Number(url.searchParams.get('entry')))) : null;
      default:
        return null;
    }
  }

  /** Spending by category this month in the owner's zone: the period's read, then the three sums at once. */
  async function spendingSummary(userId: number) {
    const [owner] = (await run(STATEMENTS.ownerSettings(userId))).rows as Array<{
      timezone: string;
      baseCurrency: string;
    }>;
    const from = `${todayIn(owner.timezone).slice(0, 8)}01`;
    const to = endOfMonth(from);
    const [sums, paid, budgets] = await Promise.all([
      run(STATEMENTS.plannedSums(userId, from, to)),
      run(STATEMENTS.paidSums(userId, from, to)),
      run(STATEMENTS.budgets(userId)),
    ]);
    const categories = budgets.rows as Array<{ category_id: number | null; category_name: string; amount: string }>;
    const summary = summarizeSpending({
      sums: sums.rows,
      paid: paid.rows,
      budgets: {
        overall: categories.find((row) => row.category_id === null)?.amount ?? null,
        categories: categories
          .filter((row) => row.category_id !== null)
          .map((row) => ({ key: String(row.category_id), label: row.category_name, amount: row.amount })),
      },
      baseCurrency: owner.baseCurrency,
      from,
      to,
      grouping: 'CATEGORY',
    });
    return {
      monthlyTotal: summary.monthlyTotal,
      groups: summary.groups.map((group) => ({ key: group.key, monthlyTotal: group.monthlyTotal })),
    };
  }

  /** Statements on one client, in one transaction. */
  async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  }

  /** The outbox rows of a change: its event and a delivery to each of the user's enabled endpoints. */
  async function outbox(client: PoolClient, userId: number, topic: string, record: { id: number }) {
    const eventId = `evt_${randomUUID()}`;
    await client.query(
      `insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload") values ($1, $2, $3, $4, $5)`,
      [eventId, userId, topic, record.id, JSON.stringify(record)],
    );
    await client.query(
      `insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
        select $1, e."id", (now() at time zone 'utc') from "webhook_endpoints" e where e."user_id" = $2 and e."enabled"`,
      [eventId, userId],
    );
  }

  /** Create with nothing in between: the record (product fields copied) and its outbox rows, one transaction. */
  function create(userId: number, form: URLSearchParams) {
    return transaction(async (client) => {
      const {
        rows: [record],
      } = await client.query(
        `insert into "subscriptions" ("user_id", "created_by", "product_id", "product_name", "brandname", "product_type", "image", "favicon",
           "homepage", "category_id", "alert_id", "type", "price", "price_type", "billing_type",
           "billing_frequency", "billing_cycle", "payment_date", "status", "recurring", "timezone")
         select $1, $1, p."id", p."product_name", p."brandname", p."product_type", coalesce(p."image", ''), p."favicon", p."url",
           p."category_id", 1, $3, $4, $5, $6, $7, $8, $9, $10, $11, u."timezone"
           from "products" p, "users" u where p."id" = $2 and u."id" = $1
         returning *`,
        [
          userId,
          form.get('brand_id'),
          form.get('type'),
          form.get('price'),
          form.get('price_type'),
          form.get('billing_type'),
          form.get('billing_frequency'),
          form.get('billing_cycle'),
          form.get('payment_date'),
          form.get('status'),
          form.get('recurring'),
        ],
      );
      await outbox(client, userId, 'subscription.created', record as { id: number });
      return { status: true, message: 'Subscription created successfully', subscription: record };
    });
  }

  /**
   * A price edit with nothing in between: the price (and the price history's step in effect today, as the
   * server's correction does) and updated_at, and the outbox rows, one transaction.
   */
  function update(userId: number, id: number, form: URLSearchParams) {
    const price = form.get('price') ?? '';
    return transaction(async (client) => {
      const corrected = priceHistory.correctionPart(id, todayIn('UTC'), price).sql;
      const statement = sql`with ${corrected}
        update "subscriptions" set "price" = ${price}::numeric, "updated_at" = now() at time zone 'utc'
         where "id" = ${id} and "user_id" = ${userId} and "deleted_at" is null returning *`;
      const {
        rows: [record],
      } = await client.query(statement.text, statement.values);
      if (!record) throw new Error(`no record ${id} of user ${userId}`);
      await outbox(client, userId, 'subscription.updated', record as { id: number });
      return { status: true, message: 'Subscription updated successfully', subscription: record };
    });
  }

  /** A payment marked paid with the ledger's own statements: the entry locked, then settled, one transaction. */
  function markPaid(userId: number, entryId: number) {
    return transaction(async (client) => {
      const ledger = new LedgerRepository({
        row: async (query: Sql) => (await client.query(query.text, query.values)).rows[0] as unknown,
        run: async (query: Sql) => (await client.query(query.text, query.values)).rowCount ?? 0,
      } as unknown as DataSource);
      const entry = await ledger.lockOwned(userId, entryId);
      if (!entry) throw new Error(`no entry ${entryId} of user ${userId}`);
      const settled = {
        status: 'paid' as const,
        paidAmount: entry.expected_amount,
        paidOn: todayIn(entry.timezone),
        note: entry.note,
      };
      await ledger.settle(entryId, settled);
      return { ...entry, status: 'paid', paid_amount: settled.paidAmount, paid_on: settled.paidOn };
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/** What the ceiling reads of a record row in plain code (the schedule's columns are scheduleOf's). */
type Row = SubscriptionRow & { id: number; timezone: string };

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The ceiling in a process of its own, as the server runs in its own: within the load generator's process the
 * two took turns on one thread, which held the ceiling ~18% below its rate alone (513 against 423 req/s on the
 * afresh list), and a ratio must never be won by slowing the ceiling.
 */
export async function startCeilingProcess(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [__filename, databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ceiling exited (${code}) before it listened`)));
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
  });
  child.removeAllListeners('exit');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (require.main === module) {
  void startCeiling(process.argv[2]).then((ceiling) => {
    process.stdout.write(`${ceiling.url}\n`);
    process.once('SIGTERM', () => void ceiling.close().then(() => process.exit(0)));
  });
}
