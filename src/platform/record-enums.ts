import { registerEnumType } from 'type-graphql';

/**
 * The closed sets of a record as GraphQL enums. Their values are the original's integer codes (codes.ts), so
 * resolvers and services keep the codes and GraphQL answers and takes the names. They live in platform because
 * records, alerts, the catalogue and detection all speak them, and no two features may import each other.
 */
export const RecordType = { SUBSCRIPTION: 1, TRIAL: 2, LIFETIME: 3 } as const;
export const RecordStatus = { DRAFT: 0, ACTIVE: 1, CANCELLED: 2, REFUNDED: 3, EXPIRED: 4 } as const;
export const Recurring = { ONCE: 0, RECURRING: 1 } as const;
export const BillingType = { FIXED_DAYS: 1, CALENDAR_DATE: 2 } as const;
export const BillingCycle = { DAILY: 1, WEEKLY: 2, MONTHLY: 3, YEARLY: 4 } as const;

registerEnumType(RecordType, {
  name: 'RecordType',
  description: 'What a record is.',
  valuesConfig: {
    SUBSCRIPTION: { description: 'A subscription that renews (REST type 1).' },
    TRIAL: { description: 'A trial, usually free until it converts (REST type 2).' },
    LIFETIME: { description: 'A lifetime purchase, paid once (REST type 3).' },
  },
});

registerEnumType(RecordStatus, {
  name: 'RecordStatus',
  description: 'Where a record is in its life.',
  valuesConfig: {
    DRAFT: { description: 'Not started: no reminders, not in totals (REST status 0).' },
    ACTIVE: { description: 'Running: payments fall due (REST status 1).' },
    CANCELLED: { description: 'Cancelled: no more payments (REST status 2).' },
    REFUNDED: { description: 'Refunded (REST status 3).' },
    EXPIRED: { description: 'Past its expiry date (REST status 4).' },
  },
});

registerEnumType(Recurring, {
  name: 'Recurring',
  description: 'Whether a record is paid once or again and again.',
  valuesConfig: {
    ONCE: { description: 'Paid once (REST recurring 0).' },
    RECURRING: { description: 'Paid every billing period (REST recurring 1).' },
  },
});

registerEnumType(BillingType, {
  name: 'BillingType',
  description: 'How the next payment date follows from the last.',
  valuesConfig: {
    FIXED_DAYS: { description: 'A fixed number of days, weeks, months or years later (REST billing_type 1).' },
    CALENDAR_DATE: { description: 'On the same calendar date of the period (REST billing_type 2).' },
  },
});

registerEnumType(BillingCycle, {
  name: 'BillingCycle',
  description: 'The unit of a billing period (its length is this times the billing frequency).',
  valuesConfig: {
    DAILY: { description: 'Days (REST billing_cycle 1).' },
    WEEKLY: { description: 'Weeks (REST billing_cycle 2).' },
    MONTHLY: { description: 'Months (REST billing_cycle 3).' },
    YEARLY: { description: 'Years (REST billing_cycle 4).' },
  },
});
