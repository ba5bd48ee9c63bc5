import Decimal from 'decimal.js';
import fc from 'fast-check';
import { occurrencesBetween } from '../../src/subscriptions/payment-dates';
import { monthlyEquivalent, summarizeSpending, type SpendingGrouping } from '../../src/subscriptions/spending';
import type { SubscriptionRecord } from '../../src/subscriptions/subscription.record';

const record = (fields: Partial<SubscriptionRecord>): SubscriptionRecord =>
  ({
    id: 1,
    status: 1,
    recurring: 1,
    billing_type: 2,
    billing_cycle: 3,
    billing_frequency: 1,
    payment_date: '2026-01-15',
    base_value: '10.00',
    price_type: 'USD',
    category_id: 2,
    category_name: 'Video',
    folder_id: null,
    folder_name: null,
    ...fields,
  }) as SubscriptionRecord;

describe('summarizeSpending', () => {
  it('averages recurring costs per month and adds up what falls due in the range', () => {
    const summary = summarizeSpending(
      [
        record({ id: 1 }),
        record({ id: 2, billing_cycle: 4, base_value: '120.00', payment_date: '2026-06-01', category_id: null, category_name: null }),
        record({ id: 3, recurring: 0, base_value: '50.00', payment_date: '2026-02-01' }),
        record({ id: 4, status: 2, base_value: '999.00' }),
      ],
      'USD',
      '2026-01-01',
      '2026-03-31',
      'CATEGORY',
    );
    expect(summary).toEqual({
      baseCurrency: 'USD',
      from: '2026-01-01',
      to: '2026-03-31',
      monthlyTotal: '20.00',
      yearlyTotal: '240.00',
      periodTotal: '80.00',
      groups: [
        { key: '0', label: 'Uncategorised', count: 1, monthlyTotal: '10.00', yearlyTotal: '120.00', periodTotal: '0.00' },
        { key: '2', label: 'Video', count: 2, monthlyTotal: '10.00', yearlyTotal: '120.00', periodTotal: '80.00' },
      ],
    });
  });

  it('groups payments by month in order', () => {
    const summary = summarizeSpending([record({ payment_date: '2026-01-31' })], 'USD', '2026-01-01', '2026-03-31', 'MONTH');
    expect(summary.groups.map((group) => [group.key, group.periodTotal])).toEqual([
      ['2026-01', '10.00'],
      ['2026-02', '10.00'],
      ['2026-03', '10.00'],
    ]);
  });

  it('gives, to the cent, what converting and adding up every record in decimal gives', () => {
    // The oracle: each record's monthly cost and payments in decimal.js, one by one, added per group.
    const oracle = (records: SubscriptionRecord[], from: string, to: string, grouping: SpendingGrouping) => {
      const groups = new Map<string, { monthly: Decimal; period: Decimal; count: number }>();
      let monthlyTotal = new Decimal(0);
      let periodTotal = new Decimal(0);
      const add = (key: string, monthly: Decimal, period: Decimal) => {
        const group = groups.get(key) ?? { monthly: new Decimal(0), period: new Decimal(0), count: 0 };
        groups.set(key, { monthly: group.monthly.plus(monthly), period: group.period.plus(period), count: group.count + 1 });
      };
      for (const r of records.filter((candidate) => candidate.status === 1)) {
        const monthly = r.recurring === 1 ? monthlyEquivalent(r.base_value, r.billing_type, r.billing_cycle, r.billing_frequency) : new Decimal(0);
        const schedule = { anchor: r.payment_date, billingType: r.billing_type, billingCycle: r.billing_cycle, billingFrequency: r.billing_frequency };
        const dates = r.recurring === 1 ? occurrencesBetween(schedule, from, to) : r.payment_date >= from && r.payment_date <= to ? [r.payment_date] : [];
        monthlyTotal = monthlyTotal.plus(monthly);
        periodTotal = periodTotal.plus(new Decimal(r.base_value).times(dates.length));
        if (grouping === 'MONTH') for (const date of dates) add(date.slice(0, 7), new Decimal(r.base_value), new Decimal(r.base_value));
        else
          add(
            grouping === 'CURRENCY' ? r.price_type : String((grouping === 'CATEGORY' ? r.category_id : r.folder_id) ?? 0),
            monthly,
            new Decimal(r.base_value).times(dates.length),
          );
      }
      const money = (value: Decimal) => value.toFixed(2, Decimal.ROUND_HALF_UP);
      return {
        monthlyTotal: money(monthlyTotal),
        yearlyTotal: money(monthlyTotal.times(12)),
        periodTotal: money(periodTotal),
        groups: [...groups.entries()]
          .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
          .map(([key, group]) => ({
            key,
            count: group.count,
            monthlyTotal: money(group.monthly),
            yearlyTotal: money(group.monthly.times(12)),
            periodTotal: money(group.period),
          })),
      };
    };
    const arbitraryRecord = fc.record({
      id: fc.integer({ min: 1, max: 1000 }),
      status: fc.constantFrom(1, 1, 1, 2),
      recurring: fc.constantFrom(0, 1, 1),
      billing_type: fc.constantFrom(1, 2),
      billing_cycle: fc.integer({ min: 1, max: 4 }),
      billing_frequency: fc.integer({ min: 1, max: 12 }),
      payment_date: fc.integer({ min: 0, max: 900 }).map((day) => new Date(Date.UTC(2025, 0, 1 + day)).toISOString().slice(0, 10)),
      base_value: fc.integer({ min: 0, max: 99_999_999_999 }).map((cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`),
      price_type: fc.constantFrom('USD', 'EUR', 'JPY'),
      category_id: fc.option(fc.integer({ min: 1, max: 4 })),
      folder_id: fc.option(fc.integer({ min: 1, max: 3 })),
    });
    fc.assert(
      fc.property(
        fc.array(arbitraryRecord, { maxLength: 40 }),
        fc.constantFrom<SpendingGrouping>('CATEGORY', 'FOLDER', 'CURRENCY', 'MONTH'),
        (fields, grouping) => {
          const records = fields.map((field) => record({ ...field, category_name: 'c', folder_name: 'f' }));
          const summary = summarizeSpending(records, 'USD', '2026-01-01', '2026-06-30', grouping);
          const expected = oracle(records, '2026-01-01', '2026-06-30', grouping);
          expect({ ...summary, groups: summary.groups.map(({ label: _label, ...group }) => group) }).toEqual({
            baseCurrency: 'USD',
            from: '2026-01-01',
            to: '2026-06-30',
            ...expected,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
