/** The integer codes of a subscription record and their labels: the original's (config/table.php). */

export const TYPE_LABELS = { 1: 'Subscription', 2: 'Trial', 3: 'Lifetime' } as const;
export const RECURRING_LABELS = { 0: 'Once', 1: 'Recurring' } as const;
export const BILLING_TYPE_LABELS = { 1: 'Days', 2: 'Date' } as const;
export const CYCLE_LABELS = { 1: 'Daily', 2: 'Weekly', 3: 'Monthly', 4: 'Yearly' } as const;
export const STATUS_LABELS = { 0: 'Draft', 1: 'Active', 2: 'Cancel', 3: 'Refund', 4: 'Expired' } as const;
export const SUB_ADDON_LABELS = { 0: 'Subscription', 1: 'Addon' } as const;
/** The catalogue's product types (product_type_name, and product_type.name in webhook bodies). */
export const PRODUCT_TYPE_LABELS = { 1: 'SaaS', 2: 'WordPress', 3: 'Desktop app' } as const;
/** The original labels the even ratings; 0 is "unset". */
export const MAX_RATING = 10;

export const enum Status {
  Draft = 0,
  Active = 1,
  Cancelled = 2,
  Refunded = 3,
  Expired = 4,
}

export const enum RecordType {
  Subscription = 1,
  Trial = 2,
  Lifetime = 3,
}

export const enum BillingType {
  FixedDays = 1,
  CalendarDate = 2,
}

export const enum Cycle {
  Daily = 1,
  Weekly = 2,
  Monthly = 3,
  Yearly = 4,
}

const CYCLE_UNITS: Record<number, string> = { 1: 'day', 2: 'week', 3: 'month', 4: 'year' };

/** A billing period in words: "every month", "every 2 weeks". */
export function periodInWords(cycle: number, frequency: number): string {
  const unit = CYCLE_UNITS[cycle];
  return frequency === 1 ? `every ${unit}` : `every ${frequency} ${unit}s`;
}

export function label(labels: Record<number, string>, code: number | null | undefined): string | null {
  return code === null || code === undefined ? null : (labels[code] ?? null);
}

/** Codes accepted for a field: the keys of its label table. */
export function codesOf(labels: Record<number, string>): number[] {
  return Object.keys(labels).map(Number);
}
