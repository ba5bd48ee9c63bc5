import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Pool, types } from 'pg';

import { todayIn } from '../../src/platform/dates';
import { nextOnOrAfter, occurrencesBetween } from '../../src/subscriptions/payment-dates';

/**
 * The ceiling: the same reads with nothing in between: node:http, pg with indexed SQL, dates kept as strings
 * (pg's Date parsing alone halves throughput), JSON.stringify, and the payment dates expanded in plain code;
 * and a create that writes the record and its outbox rows with plain `pg` in one transaction.
 */
export async function startCeiling(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  for (const oid of [1082, 1114, 1184]) types.setTypeParser(oid, (value) => value);
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const rowsOf = async (userId: number, extra = '') =>
    (await pool.query(`select * from "subscriptions" where "user_id" = $1 and "deleted_at" is null ${extra}`, [userId]))
      .rows;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://ceiling');
    const userId = Number(url.searchParams.get('user'));
    let body: unknown;
    if (url.pathname === '/list') {
      body = (
        await pool.query('select * from "subscriptions" where "user_id" = $1 order by "payment_date" limit 100', [
          userId,
        ])
      ).rows;
    } else if (url.pathname === '/upcoming') {
      const rows = await rowsOf(userId, `and "status" = 1 and "recurring" = 1`);
      body = rows
        .map((row) => ({ ...row, next_payment_date: nextOnOrAfter(schedule(row), todayIn(row.timezone)) }))
        .filter((row) => row.next_payment_date <= '9999-12-31')
        .slice(0, 100);
    } else if (url.pathname === '/calendar') {
      const rows = await rowsOf(userId, `and "status" = 1`);
      const entries: unknown[] = [];
      for (const row of rows)
        for (const date of occurrencesBetween(schedule(row), '2026-01-01', '2026-12-31'))
          entries.push({ ...row, payment_date: date });
      body = entries;
    } else if (url.pathname === '/create' && req.method === 'POST') {
      body = await create(userId, new URLSearchParams(await text(req)));
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  /** Create with nothing in between: the record (product fields copied) and its outbox rows, one transaction. */
  async function create(userId: number, form: URLSearchParams) {
    const client = await pool.connect();
    try {
      await client.query('begin');
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
      const eventId = `evt_${randomUUID()}`;
      await client.query(
        `insert into "webhook_events" ("id", "user_id", "topic", "subscription_id", "payload") values ($1, $2, 'subscription.created', $3, $4)`,
        [eventId, userId, record.id, JSON.stringify(record)],
      );
      await client.query(
        `insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at")
        select $1, e."id", (now() at time zone 'utc') from "webhook_endpoints" e where e."user_id" = $2 and e."enabled"`,
        [eventId, userId],
      );
      await client.query('commit');
      return { status: true, message: 'Subscription created successfully', subscription: record };
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
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

function schedule(row: {
  payment_date: string;
  billing_type: number;
  billing_cycle: number;
  billing_frequency: number;
}) {
  return {
    anchor: row.payment_date,
    billingType: row.billing_type,
    billingCycle: row.billing_cycle,
    billingFrequency: row.billing_frequency,
  };
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
