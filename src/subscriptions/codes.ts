/** The integer codes of a subscription record and their labels (DESIGN "Names and codes"). */

export const TYPE_LABELS = { 1: 'Subscription', 2: 'Trial', 3: 'Lifetime', 4: 'Revenue' } as const;
export const RECURRING_LABELS = { 0: 'One-time', 1: 'Recurring' } as const;
export const BILLING_TYPE_LABELS = { 1: 'Days', 2: 'Date' } as const;
export const CYCLE_LABELS = { 1: 'Daily', 2: 'Weekly', 3: 'Monthly', 4: 'Yearly' } as const;
export const STATUS_LABELS = { 0: 'Draft', 1: 'Active', 2: 'Cancelled', 3: 'Refunded' } as const;
export const SUB_ADDON_LABELS = { 0: 'Subscription', 1: 'Add-on' } as const;

export const enum Status {
  Draft = 0,
  Active = 1,
  Cancelled = 2,
  Refunded = 3,
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

export function label(labels: Record<number, string>, code: number | null | undefined): string | null {
  return code === null || code === undefined ? null : (labels[code] ?? null);
}

/** Codes accepted for a field: the keys of its label table. */
export function codesOf(labels: Record<number, string>): number[] {
  return Object.keys(labels).map(Number);
}
