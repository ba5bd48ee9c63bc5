import type { PriceStep } from './price-history.repository';

/** A record's price on each date: its steps in date order (none: one price throughout). */
export interface PriceHistory {
  /** The record's price as stored: the one in effect today. */
  current: string;
  steps: ReadonlyArray<Pick<PriceStep, 'effective_from' | 'price'>>;
}

/** The price in effect on `date`: the last step on or before it, the first step before them all. */
export function priceOn(history: PriceHistory, date: string): string {
  if (history.steps.length === 0) return history.current;
  let price = history.steps[0].price;
  for (const step of history.steps) {
    if (step.effective_from > date) break;
    price = step.price;
  }
  return price;
}

/** A record's steps as shown: its history's, or, for a price that never changed, one step from its payment date. */
export function stepsOf(
  record: { id: number; payment_date: string; price: string },
  steps: readonly PriceStep[],
): PriceStep[] {
  return steps.length > 0
    ? [...steps]
    : [{ subscription_id: record.id, effective_from: record.payment_date, price: record.price }];
}

/**
 * The steps a record's history holds after a change of price from `effectiveFrom`: a record without history
 * first gets a step for the price it began with, from its payment date; a step on the same date is replaced.
 */
export function stepsAfterChange(
  record: { id: number; payment_date: string; price: string },
  steps: readonly PriceStep[],
  change: { effectiveFrom: string; price: string },
): PriceStep[] {
  const kept = stepsOf(record, steps).filter((step) => step.effective_from !== change.effectiveFrom);
  kept.push({ subscription_id: record.id, effective_from: change.effectiveFrom, price: change.price });
  return kept.sort((a, b) => a.effective_from.localeCompare(b.effective_from));
}
