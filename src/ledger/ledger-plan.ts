import { addDays, todayIn } from '../platform/dates';
import { fromUtcTimestamp } from '../platform/db/timestamps';
import { Status } from '../subscriptions/codes';
import { lastOnOrBefore, nextOnOrAfter, occurrencesBetween } from '../subscriptions/payment-dates';
import { type PriceHistory, priceOn } from '../subscriptions/price-history';
import { scheduleOf } from '../subscriptions/subscription.record';

/** What a record's ledger is planned from. */
export interface LedgerRecord {
  id: number;
  status: number;
  recurring: number;
  payment_date: string;
  billing_type: number;
  billing_cycle: number;
  billing_frequency: number;
  expiry_date: string | null;
  timezone: string;
  price: string;
  price_type: string;
  /** UTC, as stored. */
  created_at: string;
}

export interface PlannedEntry {
  subscription_id: number;
  due_date: string;
  expected_amount: string;
  currency: string;
}

/** How far back a ledger reaches: a year of payments, however old the record. */
const LOOK_BACK_DAYS = 366;

/**
 * The entries an Active record's ledger holds: each payment from the one of the period it was made in (the
 * payment just made when it was recorded; its first payment if that comes later) through the next one due,
 * at most a year back; a one-time purchase, its one payment. Each at the price its date has.
 */
export function plannedEntries(record: LedgerRecord, history: PriceHistory['steps'], now: Date): PlannedEntry[] {
  if (record.status !== Status.Active) return [];
  const entry = (date: string): PlannedEntry => ({
    subscription_id: record.id,
    due_date: date,
    expected_amount: priceOn({ current: record.price, steps: history }, date),
    currency: record.price_type,
  });
  if (record.recurring !== 1) return [entry(record.payment_date)];
  const schedule = scheduleOf(record);
  const today = todayIn(record.timezone, now);
  // A record is never made after today (a clock set back, or a restored creation time, cannot empty its ledger).
  const madeOn = todayIn(record.timezone, fromUtcTimestamp(record.created_at));
  const first = lastOnOrBefore(schedule, madeOn < today ? madeOn : today) ?? record.payment_date;
  const earliest = addDays(today, -LOOK_BACK_DAYS);
  const through = nextOnOrAfter(schedule, today) ?? today;
  return occurrencesBetween(schedule, first > earliest ? first : earliest, through).map(entry);
}
