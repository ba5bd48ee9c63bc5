import { epochDay } from '../platform/dates';
import { toCents } from '../platform/money';
import {
  amountRuns,
  type Chain,
  deviations,
  follow,
  type Payment,
  pricedInSteps,
  reanchored,
  similarAmount,
} from './chains';
import { normalisePayee, type PayeeName } from './payee-names';
import { PERIOD_RULES, scheduleOf } from './periods';
import { summarise } from './series-summary';
import type { BankTransaction, DetectedSeries } from './statement';

/**
 * The recurring payments in a statement: outgoing payments grouped by payee and currency, and in each group the
 * chains of payments that follow a regular period with a stable amount (or lasting price steps).
 * `until` is the statement's last day (default: its latest transaction's date): a series due before it (and
 * its tolerance) has stopped.
 */
export function detectSeries(
  transactions: readonly BankTransaction[],
  options: { until?: string } = {},
): DetectedSeries[] {
  if (transactions.length === 0) return [];
  const until = options.until ?? transactions.reduce((latest, { date }) => (date > latest ? date : latest), '');
  const untilDay = epochDay(until);
  const series: DetectedSeries[] = [];
  for (const { payee, currency, payments } of outgoingByPayee(transactions)) {
    payments.sort((a, b) => a.day - b.day);
    for (const chain of seriesIn(payments)) series.push(summarise(chain, payee, currency, untilDay));
  }
  return series.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

interface PayeeGroup {
  payee: PayeeName;
  currency: string;
  payments: Payment[];
}

/** Outgoing payments (negative amounts) by normalised payee (the description when there is none) and currency. */
function outgoingByPayee(transactions: readonly BankTransaction[]): PayeeGroup[] {
  const names = new Map<string, PayeeName>();
  const groups = new Map<string, PayeeGroup>();
  for (const { date, amount, currency, payee, description } of transactions) {
    const cents = -Number(toCents(amount));
    if (cents <= 0) continue;
    const text = payee.trim() || description;
    let name = names.get(text);
    if (!name) names.set(text, (name = normalisePayee(text)));
    if (!name.key) continue;
    const key = `${name.key}|${currency}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { payee: name, currency, payments: [] }));
    group.payments.push({ date, day: epochDay(date), cents });
  }
  return [...groups.values()];
}

/**
 * The series among one group's payments (sorted by day). Every payment starts a chain for every period unless
 * a chain of that period already holds it; the strongest chains take their payments first, so a monthly
 * 9.99 and a yearly 49.00 at one merchant are two series, and a weekly series is not also read as monthly.
 */
function seriesIn(payments: readonly Payment[]): Chain[] {
  const candidates: Chain[] = [];
  for (const rule of PERIOD_RULES) {
    const chained = new Set<Payment>();
    for (const payment of payments) {
      if (chained.has(payment)) continue;
      const chain = follow(payments, () => true, rule, scheduleOf(rule, payment.date), { payment, n: 0 }, 1);
      for (const member of chain.members) chained.add(member.payment);
      if (isSeries(chain, payments)) candidates.push(chain);
    }
  }
  const offsets = new Map(candidates.map((chain) => [chain, totalOffset(chain)]));
  // More payments first, then fewer missing, then nearer their dates, then the longer period.
  candidates.sort(
    (a, b) =>
      b.members.length - a.members.length ||
      a.missing - b.missing ||
      offsets.get(a)! - offsets.get(b)! ||
      b.rule.approximateDays - a.rule.approximateDays,
  );
  const taken = new Set<Payment>();
  const found: Chain[] = [];
  for (const candidate of candidates) {
    if (candidate.members.some(({ payment }) => taken.has(payment))) continue;
    const chain = reanchored(candidate, payments, (payment) => !taken.has(payment));
    for (const { payment } of chain.members) taken.add(payment);
    found.push(chain);
  }
  return found;
}

/**
 * Enough payments for the period, and few others at the payee of about the same amount over the chain's time
 * (one in four): a supermarket's many purchases always hold a few that happen to fall a period apart at
 * similar amounts. Amounts that vary from payment to payment (usage, exchange rates) must all be near their
 * mean (not drifting away), need two payments more, and none of the others alike.
 */
function isSeries(chain: Chain, payments: readonly Payment[]): boolean {
  const count = chain.members.length;
  const varies = !pricedInSteps(chain);
  if (count < chain.rule.minimumPayments + (varies ? 2 : 0)) return false;
  const total = chain.members.reduce((sum, { payment }) => sum + payment.cents, 0);
  if (varies && !chain.members.every(({ payment }) => similarAmount(payment.cents, total, count))) return false;
  const members = new Set(chain.members.map(({ payment }) => payment));
  const prices = amountRuns(chain).map((run) => run.cents);
  const first = chain.members[0].payment.day;
  const last = chain.members[count - 1].payment.day;
  let alike = 0;
  for (const payment of payments) {
    if (payment.day < first || payment.day > last || members.has(payment)) continue;
    if (prices.some((price) => similarAmount(payment.cents, price))) alike++;
  }
  return alike <= (varies ? 0 : Math.floor(count / 4));
}

const totalOffset = (chain: Chain) => deviations(chain).reduce((sum, days) => sum + Math.abs(days), 0);
