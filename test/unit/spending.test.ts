import { summarizeSpending } from '../../src/subscriptions/spending';
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
});
