import type { Schedule } from '../subscriptions/payment-dates';
import { nearestOccurrence, occurrenceDay, type PeriodRule, phaseOf, scheduleOf } from './periods';

/** An outgoing payment of one payee and currency: its date, day number and amount in positive whole cents. */
export interface Payment {
  date: string;
  day: number;
  cents: number;
}

/** Payments that follow a period: each with the occurrence n of the schedule it was booked for. */
export interface Chain {
  rule: PeriodRule;
  schedule: Schedule;
  members: Array<{ payment: Payment; n: number }>;
  /** Occurrences between the first and the last payment that have none. */
  missing: number;
}

/**
 * Amounts of one price: within 10% or 0.50 of the price (usage-priced bills, exchange rates), or of the mean
 * of `count` amounts adding up to `price` (integers throughout: no float arithmetic on money).
 */
export function similarAmount(cents: number, price: number, count = 1): boolean {
  const difference = Math.abs(cents * count - price);
  return difference * 10 <= price || difference <= 50 * count;
}

/** One missing occurrence, and one more per twelve occurrences, never two in a row. */
const allowedMissing = (occurrences: number) => Math.max(1, Math.floor(occurrences / 12));

/** The payments (sorted by day) booked within `tolerance` days of `day`. */
function near(payments: readonly Payment[], day: number, tolerance: number): Payment[] {
  let low = 0;
  let high = payments.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (payments[middle].day < day - tolerance) low = middle + 1;
    else high = middle;
  }
  const found: Payment[] = [];
  for (let i = low; i < payments.length && payments[i].day <= day + tolerance; i++) found.push(payments[i]);
  return found;
}

const nearest = (candidates: Payment[], day: number) =>
  candidates.reduce<Payment | undefined>(
    (best, payment) => (!best || Math.abs(payment.day - day) < Math.abs(best.day - day) ? payment : best),
    undefined,
  );

/**
 * The payments that follow the schedule from `first` (at its occurrence n), forwards or backwards, among
 * the sorted payments `isFree` allows. Forwards, a lasting change of amount (two equal amounts, then a new one
 * booked again at the next occurrence) is a price step, not the end.
 */
export function follow(
  payments: readonly Payment[],
  isFree: (payment: Payment) => boolean,
  rule: PeriodRule,
  schedule: Schedule,
  first: { payment: Payment; n: number },
  direction: 1 | -1,
): Chain {
  const tolerance = rule.toleranceDays;
  const members = [first];
  // The amounts since the first payment or the last price step, to compare the next amount with their mean.
  let priceSum = first.payment.cents;
  let priceCount = 1;
  let missing = 0;
  let missedLast = false;
  const candidatesAt = (n: number, beyond: number) =>
    near(payments, occurrenceDay(schedule, n), tolerance).filter(
      (payment) => isFree(payment) && (payment.day - beyond) * direction > 0,
    );
  for (let n = first.n + direction; ; n += direction) {
    const expected = occurrenceDay(schedule, n);
    const outside =
      direction === 1
        ? expected - tolerance > payments[payments.length - 1].day
        : expected + tolerance < payments[0].day;
    if (outside) break;
    const last = members[members.length - 1].payment;
    const candidates = candidatesAt(n, last.day);
    // The same amount first, then one near the mean (amounts that vary: usage, exchange rates).
    let found =
      nearest(
        candidates.filter((payment) => payment.cents === last.cents),
        expected,
      ) ??
      nearest(
        candidates.filter((payment) => similarAmount(payment.cents, priceSum, priceCount)),
        expected,
      );
    const previous = members[members.length - 2]?.payment;
    if (!found && direction === 1 && previous?.cents === last.cents) {
      const step = nearest(candidates, expected);
      if (step && candidatesAt(n + 1, step.day).some((payment) => similarAmount(payment.cents, step.cents))) {
        found = step;
        priceSum = 0;
        priceCount = 0;
      }
    }
    if (found) {
      members.push({ payment: found, n });
      priceSum += found.cents;
      priceCount++;
      missedLast = false;
    } else {
      if (missedLast || missing + 1 > allowedMissing(Math.abs(n - first.n) + 1)) break;
      missing++;
      missedLast = true;
    }
  }
  // A miss after the last payment found is where the chain ends, not a gap in it.
  return { rule, schedule, members, missing: missedLast ? missing - 1 : missing };
}

/** Days each payment is off its occurrence, in order. */
export function deviations(chain: Chain): number[] {
  return chain.members.map(({ payment, n }) => payment.day - occurrenceDay(chain.schedule, n));
}

/**
 * The chain anchored where its payments are nearest their dates (the 31st rather than a clamped Feb 28, the
 * weekday most are booked on), then grown backwards and forwards over the free payments with that anchor.
 */
export function reanchored(chain: Chain, payments: readonly Payment[], isFree: (payment: Payment) => boolean): Chain {
  const { rule } = chain;
  const phases = new Map(chain.members.map(({ payment }) => [phaseOf(rule, payment.date), payment]));
  let best: { schedule: Schedule; total: number } | undefined;
  for (const anchor of phases.values()) {
    const schedule = scheduleOf(rule, anchor.date);
    const members = chain.members.map(({ payment }) => ({
      payment,
      n: nearestOccurrence(rule, schedule, payment.day),
    }));
    const total = deviations({ ...chain, schedule, members }).reduce((sum, days) => sum + Math.abs(days), 0);
    if (!best || total < best.total) best = { schedule, total };
  }
  const schedule = best!.schedule;
  const start = chain.members[0].payment;
  const first = { payment: start, n: nearestOccurrence(rule, schedule, start.day) };
  const before = follow(payments, isFree, rule, schedule, first, -1);
  const after = follow(payments, isFree, rule, schedule, first, 1);
  const grown: Chain = {
    rule,
    schedule,
    members: [...before.members.slice(1).reverse(), ...after.members],
    missing: before.missing + after.missing,
  };
  if (grown.members.length >= chain.members.length) return grown;
  const members = chain.members.map(({ payment }) => ({ payment, n: nearestOccurrence(rule, schedule, payment.day) }));
  return { ...chain, schedule, members };
}

/** The chain's amounts as runs of one amount, oldest first. */
export function amountRuns(chain: Chain): Array<{ from: Payment; cents: number; count: number }> {
  const runs: Array<{ from: Payment; cents: number; count: number }> = [];
  for (const { payment } of chain.members) {
    const run = runs[runs.length - 1];
    if (run?.cents === payment.cents) run.count++;
    else runs.push({ from: payment, cents: payment.cents, count: 1 });
  }
  return runs;
}

/** Whether the price changed only in lasting steps: every amount but the latest was booked at least twice. */
export function pricedInSteps(chain: Chain): boolean {
  return amountRuns(chain).every((run, index, runs) => run.count >= 2 || index === runs.length - 1);
}
