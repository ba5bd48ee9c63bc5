import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, types } from 'pg';
import { nextOnOrAfter, occurrencesBetween, todayIn } from '../../src/subscriptions/payment-dates';

/**
 * The ceiling: the same reads with nothing in between: node:http, pg with indexed SQL, dates kept as strings
 * (pg's Date parsing alone halves throughput), JSON.stringify, and the payment dates expanded in plain code.
 */
export async function startCeiling(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  for (const oid of [1082, 1114, 1184]) types.setTypeParser(oid, (value) => value);
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const rowsOf = async (userId: number, extra = '') =>
    (await pool.query(`select * from "subscriptions" where "user_id" = $1 and "deleted_at" is null ${extra}`, [userId])).rows;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://ceiling');
    const userId = Number(url.searchParams.get('user'));
    let body: unknown;
    if (url.pathname === '/list') {
      body = (await pool.query('select * from "subscriptions" where "user_id" = $1 order by "payment_date" limit 100', [userId])).rows;
    } else if (url.pathname === '/upcoming') {
      const rows = await rowsOf(userId, `and "status" = 1 and "recurring" = 1`);
      body = rows
        .map((row) => ({ ...row, next_payment_date: nextOnOrAfter(schedule(row), todayIn(row.timezone)) }))
        .filter((row) => row.next_payment_date <= '9999-12-31')
        .slice(0, 100);
    } else if (url.pathname === '/calendar') {
      const rows = await rowsOf(userId, `and "status" = 1`);
      const entries: unknown[] = [];
      for (const row of rows) for (const date of occurrencesBetween(schedule(row), '2026-01-01', '2026-12-31')) entries.push({ ...row, payment_date: date });
      body = entries;
    } else {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

function schedule(row: { payment_date: string; billing_type: number; billing_cycle: number; billing_frequency: number }) {
  return { anchor: row.payment_date, billingType: row.billing_type, billingCycle: row.billing_cycle, billingFrequency: row.billing_frequency };
}
