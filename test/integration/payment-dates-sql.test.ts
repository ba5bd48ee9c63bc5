import { Client } from 'pg';
import sql from 'sql-template-tag';

import { addDays, isCalendarDate, todayIn } from '../../src/platform/dates';
import { derivedDatesSql } from '../../src/subscriptions/payment-dates.sql';
import { type SubscriptionRow, toRecord } from '../../src/subscriptions/subscription.record';
import { prng } from '../support/statement-generator';

/**
 * The dates PostgreSQL derives for an answer it makes (payment-dates.sql.ts) are the ones toRecord derives in
 * code, for random schedules read at random instants around today: month ends, leap days, expiries, every
 * cycle, billing type and status, zones on both sides of UTC.
 */
const ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata'];
const BATCHES = 12;
const PER_BATCH = 400;

type Case = Pick<
  SubscriptionRow,
  | 'id'
  | 'payment_date'
  | 'billing_type'
  | 'billing_cycle'
  | 'billing_frequency'
  | 'expiry_date'
  | 'recurring'
  | 'status'
  | 'timezone'
  | 'refund_days'
>;

function randomCase(random: () => number, id: number, today: string): Case {
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)];
  // Anchors cluster on month ends, where clamping matters, and spread over four years around today.
  const base = addDays(today, Math.floor(random() * 1460) - 1000);
  const anchor = random() < 0.4 ? `${base.slice(0, 8)}${pick(['28', '29', '30', '31'])}` : base;
  return {
    id,
    payment_date: isCalendarDate(anchor) ? anchor : base,
    billing_type: pick([1, 2]),
    billing_cycle: pick([1, 2, 3, 4]),
    billing_frequency: pick([1, 1, 1, 2, 3, 6, 12]),
    expiry_date: random() < 0.3 ? addDays(today, Math.floor(random() * 800) - 400) : null,
    recurring: pick([0, 1, 1, 1]),
    status: pick([0, 1, 1, 1, 2, 3, 4]),
    timezone: pick(ZONES),
    refund_days: random() < 0.5 ? null : Math.floor(random() * 60),
  };
}

let client: Client;
beforeAll(async () => {
  client = new Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await client.connect();
});
afterAll(() => client.end());

it('derives the next and latest payment dates and the refund date as toRecord does', async () => {
  const random = prng(20261126);
  const today = todayIn('UTC');
  let compared = 0;
  for (let batch = 0; batch < BATCHES; batch++) {
    // An instant within a day of today's midnight, so that zones fall on both sides of a date change.
    const now = new Date(Date.parse(`${today}T00:00:00Z`) + Math.floor((random() - 0.5) * 2 * 86_400_000));
    const cases = Array.from({ length: PER_BATCH }, (_, i) => randomCase(random, batch * PER_BATCH + i, today));
    const query = sql`select s."id", d."next_payment_date"::text, d."payment_date_upd"::text, d."refund_date"::text
      from jsonb_to_recordset(${JSON.stringify(cases)}::jsonb) as s("id" int, "payment_date" date, "billing_type" int,
        "billing_cycle" int, "billing_frequency" int, "expiry_date" date, "recurring" int, "status" int, "timezone" text,
        "refund_days" int)
      ${derivedDatesSql(now)} order by s."id"`;
    const { rows } = await client.query<{
      id: number;
      next_payment_date: string | null;
      payment_date_upd: string;
      refund_date: string | null;
    }>(query.text, query.values);
    for (const [index, row] of rows.entries()) {
      const record = toRecord({ ...cases[index] } as SubscriptionRow, now);
      const derived = {
        next_payment_date: record.next_payment_date,
        payment_date_upd: record.payment_date_upd,
        refund_date: record.refund_date,
      };
      expect({ case: cases[index], now, ...row }).toEqual({ case: cases[index], now, id: cases[index].id, ...derived });
      compared++;
    }
  }
  expect(compared).toBe(BATCHES * PER_BATCH);
});

it('knows every zone a record may be in (the zones that time-zone validation accepts)', async () => {
  const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC'];
  const { rows } = await client.query<{ name: string }>(
    `select z."name" from unnest($1::text[]) z("name") where z."name" not in (select "name" from pg_timezone_names)`,
    [zones],
  );
  expect(rows.map((row) => row.name)).toEqual([]);
});
