import Decimal from 'decimal.js';
import fc from 'fast-check';

import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { BillingCycle, BillingType, RecordStatus, Recurring } from '../../src/platform/record-enums';
import { monthlyEquivalent, type SpendingGrouping } from '../../src/spending/spending';
import { occurrencesBetween } from '../../src/subscriptions/payment-dates';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Spending is summed by the database: its `payment_count` function must count the payment-date module's dates,
 * and the summary must be, to the cent, what adding up the records one by one in decimal gives.
 */
let testApp: TestApp;
let user: SignedUpUser;
let folderIds: number[];

beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Sums');
  folderIds = (
    await sql<{ id: number }>(
      testApp,
      `insert into "folders" ("user_id", "name") select ?, 'Folder ' || n from generate_series(1, 3) n returning "id"`,
      [user.id],
    )
  ).map((row) => row.id);
});
afterAll(() => testApp.close());

const day = (offset: number) => new Date(Date.UTC(2024, 0, 1 + offset)).toISOString().slice(0, 10);
/** Anchors anywhere in three years, month ends (and Feb 29) often. */
const anchorDate = fc.oneof(
  fc.integer({ min: 0, max: 1100 }).map(day),
  fc.constantFrom(
    '2024-01-29',
    '2024-01-30',
    '2024-01-31',
    '2024-02-29',
    '2025-03-31',
    '2025-05-30',
    '2025-08-31',
    '2026-12-31',
  ),
);

interface Schedule {
  recurring: number;
  anchor: string;
  billing_type: number;
  billing_cycle: number;
  billing_frequency: number;
  from: string;
  to: string;
}

const arbitrarySchedule: fc.Arbitrary<Schedule> = fc
  .record({
    recurring: fc.constantFrom(0, 1, 1, 1),
    anchor: anchorDate,
    billing_type: fc.constantFrom(1, 2),
    billing_cycle: fc.integer({ min: 1, max: 4 }),
    billing_frequency: fc.integer({ min: 1, max: 12 }),
    start: fc.integer({ min: 0, max: 1500 }),
    length: fc.integer({ min: 0, max: 3 * 366 }),
  })
  .map(({ start, length, ...schedule }) => ({ ...schedule, from: day(start), to: day(start + length) }));

it('payment_count counts the dates of the payment-date module, month ends included', async () => {
  const schedules = fc.sample(arbitrarySchedule, { numRuns: 3000, seed: 20261124 });
  const rows = await sql<{ i: number; payments: number }>(
    testApp,
    `select s."i", "payment_count"(s."recurring", s."anchor", s."billing_type", s."billing_cycle", s."billing_frequency", s."from", s."to") as "payments"
       from jsonb_to_recordset(?::jsonb) as s("i" int, "recurring" int, "anchor" date, "billing_type" int, "billing_cycle" int, "billing_frequency" int, "from" date, "to" date)
      order by s."i"`,
    [JSON.stringify(schedules.map((schedule, i) => ({ i, ...schedule })))],
  );
  expect(rows).toHaveLength(schedules.length);
  schedules.forEach((schedule, index) => {
    const expected =
      schedule.recurring === 1
        ? occurrencesBetween(
            {
              anchor: schedule.anchor,
              billingType: schedule.billing_type,
              billingCycle: schedule.billing_cycle,
              billingFrequency: schedule.billing_frequency,
            },
            schedule.from,
            schedule.to,
          )
        : schedule.anchor >= schedule.from && schedule.anchor <= schedule.to
          ? [schedule.anchor]
          : [];
    expect({ schedule, payments: rows[index].payments }).toEqual({ schedule, payments: expected.length });
  });
});

const arbitraryRecord = fc.record({
  status: fc.constantFrom(1, 1, 1, 2),
  recurring: fc.constantFrom(0, 1, 1),
  billing_type: fc.constantFrom(1, 2),
  billing_cycle: fc.integer({ min: 1, max: 4 }),
  billing_frequency: fc.integer({ min: 1, max: 12 }),
  payment_date: fc.integer({ min: 365, max: 1265 }).map(day),
  price: fc
    .integer({ min: 0, max: 9_999_999_999 })
    .map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`),
  price_type: fc.constantFrom('USD', 'EUR', 'JPY'),
  category_id: fc.option(fc.integer({ min: 1, max: 4 })),
  folder: fc.option(fc.integer({ min: 0, max: 2 })),
});
type GeneratedRecord = typeof arbitraryRecord extends fc.Arbitrary<infer T> ? T : never;

/** Replaces the user's records with these, straight into the table. */
async function storeRecords(records: GeneratedRecord[]): Promise<void> {
  await sql(testApp, `delete from "subscriptions" where "user_id" = ?`, [user.id]);
  const rows = records.map(({ folder, ...record }) => ({
    ...record,
    folder_id: folder === null ? null : folderIds[folder],
  }));
  await sql(
    testApp,
    `insert into "subscriptions" ("user_id", "created_by", "product_id", "product_name", "image", "type", "timezone", "status", "recurring", "billing_type",
       "billing_cycle", "billing_frequency", "payment_date", "price", "price_type", "category_id", "folder_id")
     select ?, ?, (select min("id") from "products"), 'Generated', '', 1, 'UTC', r.* from jsonb_to_recordset(?::jsonb) as r("status" int, "recurring" int,
       "billing_type" int, "billing_cycle" int, "billing_frequency" int, "payment_date" date, "price" numeric, "price_type" text, "category_id" int, "folder_id" int)`,
    [user.id, user.id, JSON.stringify(rows)],
  );
}

interface ListedRecord {
  status: number;
  recurring: number;
  billingType: number;
  billingCycle: number;
  billingFrequency: number;
  paymentDate: string;
  currency: string;
  baseValue: string;
  category: { id: string; legacyId: number } | null;
  folder: { id: string; legacyId: number } | null;
}

/** A record as GraphQL lists it: enums by name, money as Money. */
interface GraphqlRecord extends Omit<
  ListedRecord,
  'status' | 'recurring' | 'billingType' | 'billingCycle' | 'currency' | 'baseValue'
> {
  status: keyof typeof RecordStatus;
  recurring: keyof typeof Recurring;
  billingType: keyof typeof BillingType;
  billingCycle: keyof typeof BillingCycle;
  price: { amount: string; currency: string };
  basePrice: { amount: string; currency: string };
}

/** The codes behind the enums' names, and the currencies of the Money fields. */
function listedRecord({ status, recurring, billingType, billingCycle, price, basePrice, ...rest }: GraphqlRecord) {
  expect(basePrice.currency).toBe('USD');
  return {
    ...rest,
    status: RecordStatus[status],
    recurring: Recurring[recurring],
    billingType: BillingType[billingType],
    billingCycle: BillingCycle[billingCycle],
    currency: price.currency,
    baseValue: basePrice.amount,
  } satisfies ListedRecord;
}

/** The oracle: each listed record's base value, monthly cost and payments in decimal, one by one, added per group. */
function oracle(records: ListedRecord[], from: string, to: string, grouping: SpendingGrouping) {
  const groups = new Map<string, { monthly: Decimal; period: Decimal; count: number }>();
  /** The server's key of a group by its sort key: a category's or folder's global id ("NONE": none). */
  const keys = new Map<string, string>();
  let monthlyTotal = new Decimal(0);
  let periodTotal = new Decimal(0);
  const add = (key: string, monthly: Decimal, period: Decimal) => {
    const group = groups.get(key) ?? { monthly: new Decimal(0), period: new Decimal(0), count: 0 };
    groups.set(key, {
      monthly: group.monthly.plus(monthly),
      period: group.period.plus(period),
      count: group.count + 1,
    });
  };
  for (const r of records.filter((candidate) => candidate.status === 1)) {
    const monthly =
      r.recurring === 1
        ? monthlyEquivalent(r.baseValue, r.billingType, r.billingCycle, r.billingFrequency)
        : new Decimal(0);
    const schedule = {
      anchor: r.paymentDate,
      billingType: r.billingType,
      billingCycle: r.billingCycle,
      billingFrequency: r.billingFrequency,
    };
    const dates =
      r.recurring === 1
        ? occurrencesBetween(schedule, from, to)
        : r.paymentDate >= from && r.paymentDate <= to
          ? [r.paymentDate]
          : [];
    monthlyTotal = monthlyTotal.plus(monthly);
    periodTotal = periodTotal.plus(new Decimal(r.baseValue).times(dates.length));
    if (grouping === 'MONTH')
      for (const date of dates) add(date.slice(0, 7), new Decimal(r.baseValue), new Decimal(r.baseValue));
    else if (grouping === 'CURRENCY') add(r.currency, monthly, new Decimal(r.baseValue).times(dates.length));
    else {
      // Ordered by the row ids, keyed by the global ids.
      const linked = grouping === 'CATEGORY' ? r.category : r.folder;
      const order = String(linked?.legacyId ?? 0);
      keys.set(order, linked?.id ?? 'NONE');
      add(order, monthly, new Decimal(r.baseValue).times(dates.length));
    }
  }
  const money = (value: Decimal) => ({ amount: value.toFixed(2, Decimal.ROUND_HALF_UP), currency: 'USD' });
  return {
    monthlyTotal: money(monthlyTotal),
    yearlyTotal: money(monthlyTotal.times(12)),
    periodTotal: money(periodTotal),
    groups: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
      .map(([key, group]) => ({
        key: keys.get(key) ?? key,
        count: group.count,
        monthlyTotal: money(group.monthly),
        yearlyTotal: money(group.monthly.times(12)),
        periodTotal: money(group.period),
      })),
  };
}

it('sums to the cent what converting and adding up every listed record in decimal gives', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(arbitraryRecord, { maxLength: 40 }),
      fc.constantFrom<SpendingGrouping>('CATEGORY', 'FOLDER', 'CURRENCY', 'MONTH'),
      // Whole months, and a range that starts and ends inside a month.
      fc.constantFrom(['2026-01-01', '2026-06-30'], ['2026-01-15', '2026-05-10']),
      async (records, grouping, [from, to]) => {
        await storeRecords(records);
        const { subscriptions } = await graphqlData<{ subscriptions: { edges: Array<{ node: GraphqlRecord }> } }>(
          testApp,
          user.token,
          '{ subscriptions(first: 100) { edges { node { status recurring billingType billingCycle billingFrequency paymentDate price { amount currency } basePrice { amount currency } category { id legacyId } folder { id legacyId } } } } }',
        );
        const { spendingSummary } = await graphqlData(
          testApp,
          user.token,
          `{ spendingSummary(groupBy: ${grouping}, from: "${from}", to: "${to}") { baseCurrency from to monthlyTotal { amount currency } yearlyTotal { amount currency } periodTotal { amount currency } groups { key count monthlyTotal { amount currency } yearlyTotal { amount currency } periodTotal { amount currency } } } }`,
        );
        const listed = subscriptions.edges.map((edge) => listedRecord(edge.node));
        expect(listed).toHaveLength(records.length);
        expect(spendingSummary).toEqual({ baseCurrency: 'USD', from, to, ...oracle(listed, from, to, grouping) });
      },
    ),
    { numRuns: 40, seed: 20261124 },
  );
});

it('labels the groups with the names of categories and folders, and their absence', async () => {
  await storeRecords([
    {
      status: 1,
      recurring: 1,
      billing_type: 2,
      billing_cycle: 3,
      billing_frequency: 1,
      payment_date: '2026-01-15',
      price: '10.00',
      price_type: 'USD',
      category_id: null,
      folder: 1,
    },
    {
      status: 1,
      recurring: 0,
      billing_type: 2,
      billing_cycle: 3,
      billing_frequency: 1,
      payment_date: '2026-02-01',
      price: '50.00',
      price_type: 'USD',
      category_id: 2,
      folder: null,
    },
  ]);
  const labels = async (grouping: SpendingGrouping) =>
    (
      await graphqlData(
        testApp,
        user.token,
        `{ spendingSummary(groupBy: ${grouping}, from: "2026-01-01", to: "2026-03-31") { groups { key label count periodTotal { amount currency } } } }`,
      )
    ).spendingSummary.groups;
  const [category] = await sql<{ name: string }>(testApp, `select "name" from "product_categories" where "id" = 2`);
  const usd = (amount: string) => ({ amount, currency: 'USD' });
  expect(await labels('CATEGORY')).toEqual([
    { key: 'NONE', label: 'Uncategorised', count: 1, periodTotal: usd('30.00') },
    { key: toGlobalId('ProductCategory', 2), label: category.name, count: 1, periodTotal: usd('50.00') },
  ]);
  expect(await labels('FOLDER')).toEqual([
    { key: 'NONE', label: 'No folder', count: 1, periodTotal: usd('50.00') },
    { key: toGlobalId('Folder', folderIds[1]), label: 'Folder 2', count: 1, periodTotal: usd('30.00') },
  ]);
  expect(await labels('CURRENCY')).toEqual([{ key: 'USD', label: 'USD', count: 2, periodTotal: usd('80.00') }]);
  expect(await labels('MONTH')).toEqual([
    { key: '2026-01', label: '2026-01', count: 1, periodTotal: usd('10.00') },
    { key: '2026-02', label: '2026-02', count: 2, periodTotal: usd('60.00') },
    { key: '2026-03', label: '2026-03', count: 1, periodTotal: usd('10.00') },
  ]);
});
