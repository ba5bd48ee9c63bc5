import Decimal from 'decimal.js';

import { isCalendarDate } from '../platform/dates';
import { storedRate } from './stored-rate';

/** Rates as a source publishes them: units of each currency per one unit of `base`, as of a date. */
export interface ReferenceRates {
  asOf: string;
  base: string;
  rates: Record<string, string>;
}

/** Why a source's answer is not taken. */
export class RatesSourceError extends Error {}

/** The ECB's XML reader, made with the first refresh (most processes never refresh: they stay without it). */
let xml: import('fast-xml-parser').XMLParser | undefined;
function xmlParser(): import('fast-xml-parser').XMLParser {
  if (!xml) {
    const { XMLParser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
    xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      removeNSPrefix: true,
      parseAttributeValue: false,
    });
  }
  return xml;
}

/**
 * Reads the European Central Bank's daily XML (`<Cube time><Cube currency rate/>…`, per euro) or a
 * Frankfurter-compatible JSON answer (`{base, date, rates}`), whichever the body is.
 */
export function readReferenceRates(body: string): ReferenceRates {
  const text = body.trim();
  if (text.startsWith('<')) {
    let day: { time?: string; Cube?: unknown };
    try {
      day = (xmlParser().parse(text) as { Envelope?: { Cube?: { Cube?: typeof day } } }).Envelope?.Cube?.Cube ?? {};
    } catch (error) {
      throw new RatesSourceError(`the XML does not parse: ${(error as Error).message}`);
    }
    const entries = ([] as Array<{ currency?: string; rate?: string }>).concat((day.Cube as never) ?? []);
    return {
      asOf: String(day.time ?? ''),
      base: 'EUR',
      rates: Object.fromEntries(entries.map((entry) => [String(entry.currency), String(entry.rate)])),
    };
  }
  let json: { base?: unknown; date?: unknown; rates?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new RatesSourceError('the answer is neither the ECB XML nor JSON');
  }
  if (typeof json?.rates !== 'object' || json.rates === null) throw new RatesSourceError('the JSON has no rates');
  return {
    asOf: String(json.date ?? ''),
    base: String(json.base ?? ''),
    rates: Object.fromEntries(Object.entries(json.rates).map(([currency, rate]) => [currency, String(rate)])),
  };
}

/** How far one refresh may move a rate: a halving or a doubling is a broken source, not a market. */
const PLAUSIBLE_FACTOR = 2;

/**
 * The rates per US dollar (the table's unit), checked: a date, a base, every rate a positive number, the
 * dollar among them, every rate per dollar one the table can keep (storedRate), and no rate moved more than
 * PLAUSIBLE_FACTOR from the one kept.
 */
export function perUsdRates(
  source: ReferenceRates,
  kept: Record<string, string>,
  today: string,
): { asOf: string; rates: Record<string, string> } {
  if (!isCalendarDate(source.asOf) || source.asOf > today)
    throw new RatesSourceError(`the as-of date "${source.asOf}" is not a date up to today`);
  if (!/^[A-Z]{3}$/.test(source.base)) throw new RatesSourceError(`the base "${source.base}" is not a currency code`);
  const perBase = new Map<string, Decimal>([[source.base, new Decimal(1)]]);
  for (const [currency, value] of Object.entries(source.rates)) {
    const rate = /^\d+(\.\d+)?(e[-+]?\d+)?$/i.test(value) ? new Decimal(value) : null;
    if (!/^[A-Z]{3}$/.test(currency) || !rate || !rate.isFinite() || rate.lte(0)) {
      throw new RatesSourceError(`the rate of "${currency}" is not a positive number ("${value}")`);
    }
    perBase.set(currency, rate);
  }
  const dollar = perBase.get('USD');
  if (!dollar) throw new RatesSourceError('the source has no US dollar rate to convert through');
  const rates: Record<string, string> = {};
  for (const [currency, rate] of perBase) {
    const perUsd = rate.div(dollar);
    // A rate the table cannot keep (one that rounds to 0, or too large) refuses the whole answer.
    const stored = storedRate(currency, perUsd);
    if ('problem' in stored) throw new RatesSourceError(stored.problem);
    const before = kept[currency] === undefined ? null : new Decimal(kept[currency]);
    if (before && (perUsd.gt(before.mul(PLAUSIBLE_FACTOR)) || perUsd.mul(PLAUSIBLE_FACTOR).lt(before))) {
      throw new RatesSourceError(
        `${currency} would move from ${before.toFixed()} to ${perUsd.toFixed(8)} per USD at once, more than ${PLAUSIBLE_FACTOR}×`,
      );
    }
    rates[currency] = stored.rate;
  }
  return { asOf: source.asOf, rates };
}
