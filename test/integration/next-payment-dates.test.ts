import Decimal from 'decimal.js';

import { createSubscription, recordId, updateProfile } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Each record's stored next payment date: written with every change, rolled forward by the sweep, and only
 * ever a way to find candidates: upcoming answers from dates derived at read time, whatever is stored.
 */
let testApp: TestApp;
let user: SignedUpUser;
let now = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  testApp = await startTestApp({}, { clock: () => now });
  user = await signUp(testApp, 'Dates');
});
afterAll(() => testApp.close());

const stored = async (id: unknown) =>
  (
    await sql<{ next_payment_date: string | null }>(
      testApp,
      `select "next_payment_date" from "subscriptions" where "id" = ?`,
      [id],
    )
  )[0].next_payment_date;
const upcomingIds = async (days: number) => {
  const response = await testApp.http
    .get(`/api/v1/subscriptions/upcoming?days=${days}`)
    .set('authorization', `Bearer ${user.token}`);
  return response.status === 200
    ? (response.body as Array<{ id: number; next_payment_date: string }>).map((record) => [
        record.id,
        record.next_payment_date,
      ])
    : [];
};

it('is written with every change: the next date for an Active recurring record, null otherwise', async () => {
  const monthly = await createSubscription(testApp, user.token, { payment_date: '2026-01-31' });
  expect(await stored(monthly.id)).toBe('2026-03-31');
  await testApp.http
    .put(`/api/v1/subscriptions/${monthly.id}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ payment_date: '2026-01-15' });
  expect(await stored(monthly.id)).toBe('2026-03-15');
  const once = await createSubscription(testApp, user.token, { recurring: '0', payment_date: '2026-04-01' });
  expect(await stored(once.id)).toBeNull();
  await testApp.http.post(`/api/v1/subscriptions/${monthly.id}/cancel`).set('authorization', `Bearer ${user.token}`);
  expect(await stored(monthly.id)).toBeNull();
});

it('is rolled forward by the sweep once it has passed, and filled in where it was never stored', async () => {
  const weekly = await createSubscription(testApp, user.token, { payment_date: '2026-03-02', billing_cycle: '2' });
  const unknown = await createSubscription(testApp, user.token, { payment_date: '2026-02-20' });
  expect(await stored(weekly.id)).toBe('2026-03-16');
  await sql(testApp, `update "subscriptions" set "next_payment_date" = null where "id" = ?`, [unknown.id]);
  now = new Date('2026-03-20T12:00:00Z');
  try {
    expect(await testApp.app.services.subscriptions.rollNextPaymentDates()).toBeGreaterThanOrEqual(2);
    expect(await stored(weekly.id)).toBe('2026-03-23');
    expect(await stored(unknown.id)).toBe('2026-03-20');
    // Nothing left to roll at the same instant.
    expect(await testApp.app.services.subscriptions.rollNextPaymentDates()).toBe(0);
  } finally {
    now = new Date('2026-03-10T12:00:00Z');
  }
});

it('only finds candidates: upcoming answers from dates derived at read time, stale or unknown ones included', async () => {
  const other = await signUp(testApp, 'Upcoming');
  const soon = await createSubscription(testApp, other.token, { payment_date: '2026-02-12' });
  const later = await createSubscription(testApp, other.token, { payment_date: '2026-02-25' });
  const stale = await createSubscription(testApp, other.token, { payment_date: '2026-01-11' });
  const unknown = await createSubscription(testApp, other.token, { payment_date: '2026-01-14' });
  // A candidate by its unknown date whose derived payment falls outside the shorter window.
  const unknownLater = await createSubscription(testApp, other.token, { payment_date: '2026-01-20' });
  await sql(testApp, `update "subscriptions" set "next_payment_date" = '2026-01-11' where "id" = ?`, [stale.id]);
  for (const id of [unknown.id, unknownLater.id])
    await sql(testApp, `update "subscriptions" set "next_payment_date" = null where "id" = ?`, [id]);
  const previous = user;
  user = other;
  try {
    expect(await upcomingIds(5)).toEqual([
      [stale.id, '2026-03-11'],
      [soon.id, '2026-03-12'],
      [unknown.id, '2026-03-14'],
    ]);
    expect((await upcomingIds(30)).map(([id]) => id)).toEqual([
      stale.id,
      soon.id,
      unknown.id,
      unknownLater.id,
      later.id,
    ]);
    // GraphQL's upcoming payments are the same read.
    const { upcomingPayments } = await graphqlData(
      testApp,
      other.token,
      '{ upcomingPayments(days: 5) { id nextPaymentDate } }',
    );
    expect(upcomingPayments).toEqual([
      { id: recordId(stale.id), nextPaymentDate: '2026-03-11' },
      { id: recordId(soon.id), nextPaymentDate: '2026-03-12' },
      { id: recordId(unknown.id), nextPaymentDate: '2026-03-14' },
    ]);
  } finally {
    user = previous;
  }
});

it('becomes unknown when the records follow the user to another zone', async () => {
  const zoned = await signUp(testApp, 'Zoned');
  const record = await createSubscription(testApp, zoned.token, { payment_date: '2026-01-31' });
  expect(await stored(record.id)).toBe('2026-03-31');
  await updateProfile(testApp, zoned.token, { timezone: 'Pacific/Kiritimati' });
  const [row] = await sql<{ timezone: string; next_payment_date: string | null }>(
    testApp,
    `select "timezone", "next_payment_date" from "subscriptions" where "id" = ?`,
    [record.id],
  );
  expect(row).toEqual({ timezone: 'Pacific/Kiritimati', next_payment_date: null });
  // The sweep stores it again, in the new zone.
  await testApp.app.services.subscriptions.rollNextPaymentDates();
  expect(await stored(record.id)).toBe('2026-03-31');
});

describe('an expiry_date ends the schedule', () => {
  const auth = () => ({ authorization: `Bearer ${user.token}` });

  it('no payment after it in the record, upcoming, the calendar, spending or the reminders; one on the day counts', async () => {
    now = new Date('2026-03-10T12:00:00Z');
    const ending = await createSubscription(testApp, user.token, {
      payment_date: '2026-01-31',
      expiry_date: '2026-04-30',
      price: '10.00',
    });
    expect(ending.next_payment_date).toBe('2026-03-31');
    const { body: calendar } = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2026-03-01', end: '2026-08-31' })
      .set(auth());
    expect(
      (calendar as Array<{ subscription_id: number; calendar_date: string }>)
        .filter((entry) => entry.subscription_id === ending.id)
        .map((entry) => entry.calendar_date),
    ).toEqual(['2026-03-31', '2026-04-30']);
    const spending = async () =>
      (
        await graphqlData(
          testApp,
          user.token,
          '{ spendingSummary(groupBy: MONTH, from: "2026-01-01", to: "2026-12-31") { groups { key periodTotal { amount currency } } } }',
        )
      ).spendingSummary.groups as Array<{ key: string; periodTotal: { amount: string; currency: string } }>;
    const before = await spending();

    // Past its last payment before the end: no next payment, nothing upcoming, no payment reminder.
    const ended = await createSubscription(testApp, user.token, {
      payment_date: '2026-01-31',
      expiry_date: '2026-03-30',
      price: '10.00',
      alert_id: '1',
    });
    expect(ended.next_payment_date).toBeNull();
    expect(await stored(ended.id)).toBeNull();
    expect((await upcomingIds(60)).map(([id]) => id)).not.toContain(ended.id);
    const reminders = await sql<{ kind: string }>(
      testApp,
      `select "kind" from "reminders" where "subscription_id" = ? and "status" = 'SCHEDULED'`,
      [ended.id],
    );
    expect(reminders).toEqual([]);
    // Spending counts its January and February payments only (and March 30 has none: March 31 would be next).
    const after = await spending();
    const added = (key: string) => {
      const total = (groups: typeof before) =>
        new Decimal(groups.find((group) => group.key === key)?.periodTotal.amount ?? 0);
      return total(after).minus(total(before)).toFixed(2);
    };
    expect([added('2026-01'), added('2026-02'), added('2026-03'), added('2026-12')]).toEqual([
      '10.00',
      '10.00',
      '0.00',
      '0.00',
    ]);
    // The sweep leaves it alone: null is its date, not a date still to fill in.
    await testApp.app.services.subscriptions.rollNextPaymentDates();
    expect(await testApp.app.services.subscriptions.rollNextPaymentDates()).toBe(0);
  });
});
