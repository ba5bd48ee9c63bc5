import { type SubscriptionRow, toRecord } from '../../src/subscriptions/subscription.record';

const row = (fields: Partial<SubscriptionRow>): SubscriptionRow =>
  ({
    id: 1,
    recurring: 1,
    status: 1,
    billing_type: 2,
    billing_cycle: 1,
    billing_frequency: 1,
    payment_date: '2026-01-01',
    refund_days: null,
    price: '10.00',
    price_type: 'USD',
    base_currency: 'USD',
    timezone: 'UTC',
    ...fields,
  }) as SubscriptionRow;

describe('toRecord', () => {
  // 2026-03-01 10:30 UTC is still Feb 28 in Pago Pago (UTC-11) and already Mar 2 in Kiritimati (UTC+14).
  const now = new Date('2026-03-01T10:30:00Z');

  it('decides "today" in the record\'s timezone', () => {
    expect(toRecord(row({ timezone: 'UTC' }), now).next_payment_date).toBe('2026-03-01');
    expect(toRecord(row({ timezone: 'Pacific/Pago_Pago' }), now).next_payment_date).toBe('2026-02-28');
    expect(toRecord(row({ timezone: 'Pacific/Kiritimati' }), now).next_payment_date).toBe('2026-03-02');
  });

  it('has no next payment for one-time or inactive records, and a refund date from refund_days', () => {
    expect(toRecord(row({ recurring: 0 }), now).next_payment_date).toBeNull();
    expect(toRecord(row({ status: 2 }), now).next_payment_date).toBeNull();
    expect(toRecord(row({ refund_days: 30 }), now).refund_date).toBe('2026-01-31');
    expect(toRecord(row({}), now).refund_date).toBeNull();
  });
});
