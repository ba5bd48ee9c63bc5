import Decimal from 'decimal.js';

import { AppError } from '../platform/errors';
import { centsText, toCents } from '../platform/money';
import { moneyProblem } from '../subscriptions/subscription.input';
import type { SplitMode } from './household.entity';

/** One member's part as given: nothing for equal shares, else an amount or a percentage (decimal string). */
export interface ShareInput {
  memberId: number;
  value?: string | null;
}

export const MAX_SHARES = 50;

/**
 * The weights a split is stored as, in split order: 1 per member for equal shares, else the amounts or the
 * percentages themselves, checked: amounts add up to the record's price, percentages to 100. Costs are split by
 * weight, so a later price change keeps the proportions of the amounts.
 */
export function splitWeights(
  mode: SplitMode,
  shares: readonly ShareInput[],
  price: string,
): Array<{ memberId: number; weight: string }> {
  const problem = (text: string) => AppError.field('shares', text);
  if (shares.length < 1 || shares.length > MAX_SHARES) throw problem(`Give from 1 to ${MAX_SHARES} shares.`);
  if (new Set(shares.map((share) => share.memberId)).size !== shares.length)
    throw problem('Each member may have one share.');
  if (mode === 'equal') {
    if (shares.some((share) => share.value !== undefined && share.value !== null))
      throw problem('Equal shares take no values.');
    return shares.map((share) => ({ memberId: share.memberId, weight: '1' }));
  }
  const label = mode === 'amounts' ? 'amount' : 'percentage';
  for (const share of shares) {
    const invalid =
      share.value === undefined || share.value === null
        ? `Each share needs its ${label}.`
        : moneyProblem(label, share.value);
    if (invalid) throw problem(invalid);
  }
  const total = shares.reduce((sum, share) => sum.plus(share.value!), new Decimal(0));
  const whole = mode === 'amounts' ? new Decimal(price) : new Decimal(100);
  if (!total.equals(whole))
    throw problem(`The ${label}s must add up to ${mode === 'amounts' ? `the price, ${price}` : '100'}.`);
  if (total.isZero()) throw problem('At least one share must be more than 0.');
  return shares.map((share) => ({ memberId: share.memberId, weight: new Decimal(share.value!).toFixed(2) }));
}

/** A shared record's payer and split as stored: the split's weights in split order. */
export interface StoredSharing {
  payerId: number;
  mode: SplitMode;
  price: string;
  splits: ReadonlyArray<{ memberId: number; weight: string }>;
}

/**
 * A shared record's payer and split once a member's part is handed back to the owner: the owner pays what the
 * member paid and takes the member's share, in its place, or merged into the owner's own share when they hold
 * one (the weights added: amounts still add up to the same price, percentages to 100). Equal shares merged so
 * are no longer equal: the split becomes each member's amount of the current price, the owner's two together,
 * so no one's part changes (at a price of 0.00, where every part is nothing, the member's equal share just goes).
 */
export function handedBack(
  sharing: StoredSharing,
  memberId: number,
  ownerMemberId: number,
): Omit<StoredSharing, 'price'> {
  const payerId = sharing.payerId === memberId ? ownerMemberId : sharing.payerId;
  const ownerHasShare = sharing.splits.some((split) => split.memberId === ownerMemberId);
  if (!ownerHasShare) {
    const splits = sharing.splits.map((split) =>
      split.memberId === memberId ? { memberId: ownerMemberId, weight: split.weight } : split,
    );
    return { payerId, mode: sharing.mode, splits };
  }
  let mode = sharing.mode;
  let splits = [...sharing.splits];
  const cents = toCents(sharing.price);
  if (mode === 'equal' && cents > 0n && splits.some((split) => split.memberId === memberId)) {
    mode = 'amounts';
    const parts = splitCents(
      cents,
      splits.map((split) => split.weight),
    );
    splits = splits.map((split, index) => ({ memberId: split.memberId, weight: centsText(parts[index]) }));
  }
  const handed = splits.find((split) => split.memberId === memberId)?.weight ?? '0';
  return {
    payerId,
    mode,
    splits: splits
      .filter((split) => split.memberId !== memberId)
      .map((split) =>
        split.memberId === ownerMemberId && mode !== 'equal'
          ? { memberId: split.memberId, weight: new Decimal(split.weight).plus(handed).toFixed(2) }
          : split,
      ),
  };
}

/**
 * Each member's part of `cents` by weight, cut to the cent so that the parts always add up to the whole: the
 * part of the weights up to and including a member's, rounded down, less the part before it. The spending
 * statements cut the same way in SQL.
 */
export function splitCents(cents: bigint, weights: readonly string[]): bigint[] {
  // A weight's hundredths, as cents are an amount's: integers, so the cut is exact.
  const hundredths = weights.map(toCents);
  const total = hundredths.reduce((sum, weight) => sum + weight, 0n);
  let before = 0n;
  return hundredths.map((weight) => {
    const part = (cents * (before + weight)) / total - (cents * before) / total;
    before += weight;
    return part;
  });
}
