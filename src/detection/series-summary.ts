import { epochDay } from '../platform/dates';
import { centsText } from '../platform/money';
import { occurrence } from '../subscriptions/payment-dates';
import { amountRuns, type Chain, deviations, pricedInSteps } from './chains';
import type { PayeeName } from './payee-names';
import { describePeriod } from './periods';
import type { DetectedSeries } from './statement';

const money = (cents: number) => centsText(BigInt(cents));

/** A chain of payments as the series people are shown: prices, the next date, whether it goes on, and why. */
export function summarise(chain: Chain, payee: PayeeName, currency: string, untilDay: number): DetectedSeries {
  const { rule, schedule, members } = chain;
  const payments = members.map(({ payment }) => ({ date: payment.date, amount: money(payment.cents) }));
  const last = members[members.length - 1];
  const nextDate = occurrence(schedule, last.n + 1);
  // Due no later than the statement's end (and the tolerance): going on; otherwise the payments stopped.
  const ongoing = epochDay(nextDate) + rule.toleranceDays >= untilDay;
  const runs = amountRuns(chain);
  const stepped = pricedInSteps(chain);
  // Without steps the series has one price from its first payment: the latest amount, which a record takes.
  const priceSteps = stepped
    ? runs.map((run) => ({ effectiveFrom: run.from.date, price: money(run.cents) }))
    : [{ effectiveFrom: payments[0].date, price: money(last.payment.cents) }];
  const offsets = deviations(chain).map(Math.abs);
  const largestOffset = Math.max(...offsets);
  const reasons = [
    `${members.length} payments, ${describePeriod(rule, schedule.anchor)}` +
      (largestOffset > 0 ? ` ± ${largestOffset} day${largestOffset > 1 ? 's' : ''}` : ''),
    ...amountReasons(chain, runs, stepped),
  ];
  if (chain.missing > 0)
    reasons.push(chain.missing === 1 ? 'one payment missing' : `${chain.missing} payments missing`);
  if (!ongoing) reasons.push(`stopped: nothing since ${last.payment.date}, due ${nextDate}`);
  return {
    key: `${payee.key}|${currency}|${rule.period.cycle}/${rule.period.frequency}`,
    payee: payee.display,
    currency,
    period: { ...rule.period },
    price: money(last.payment.cents),
    priceSteps,
    payments,
    nextDate,
    ongoing,
    confidence: confidence(chain, offsets, stepped),
    reasons,
  };
}

function amountReasons(chain: Chain, runs: ReturnType<typeof amountRuns>, stepped: boolean): string[] {
  if (runs.length === 1) return ['same amount'];
  if (!stepped) {
    const amounts = chain.members.map(({ payment }) => payment.cents);
    return [`amount varies from ${money(Math.min(...amounts))} to ${money(Math.max(...amounts))}`];
  }
  return runs
    .slice(1)
    .map(
      (run, index) =>
        `price ${run.cents > runs[index].cents ? 'rose' : 'fell'} from ${money(runs[index].cents)} to ${money(run.cents)} on ${run.from.date}`,
    );
}

/**
 * 0 to 1: more payments make a series likelier (two are a guess, six are near certain), bookings off their
 * dates and missing ones less, and so do amounts that vary from payment to payment.
 */
function confidence(chain: Chain, offsets: number[], stepped: boolean): number {
  const count = chain.members.length;
  const evidence = 1 - 0.5 ** (count - 1);
  const meanOffset = offsets.reduce((sum, days) => sum + days, 0) / count;
  const regularity = (1 - meanOffset / (2 * (chain.rule.toleranceDays + 1))) * 0.9 ** chain.missing;
  const amounts = chain.members.map(({ payment }) => payment.cents);
  const stability = stepped ? 1 : 1 - (Math.max(...amounts) - Math.min(...amounts)) / Math.max(...amounts);
  return Math.round(evidence * regularity * stability * 100) / 100;
}
