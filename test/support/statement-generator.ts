import Decimal from 'decimal.js';

import { normalisePayee } from '../../src/detection/payee-names';
import type { BankTransaction, BillingPeriod, DetectedSeries } from '../../src/detection/statement';
import { addDays, addMonths, daysInMonth, epochDay, formatDate, LAST_DATE, mustParse } from '../../src/platform/dates';
import { BillingType } from '../../src/subscriptions/codes';
import { occurrencesBetween } from '../../src/subscriptions/payment-dates';

/**
 * Bank statements made from known schedules, with the noise of a real account around them: the detector's
 * truth. What counts as a true series here:
 * - every subscription below, the cancelled one too (reported with ongoing false);
 * - the monthly rent transfer (a fixed outgoing payment every month is a recurring payment);
 * - the USD subscription booked on the EUR account: its booked amount follows the rate (within ±3%), so it
 *   is one monthly EUR series priced at the latest booked amount;
 * not: groceries, one-off purchases, transfers to people, refunds and the salary (incoming).
 * A schedule counts only when the statement shows it recur: two bookings for a period of six months or more,
 * three for shorter ones (one booking shows no period). So a year-long statement holds no true yearly series;
 * statements cover 24 months unless told otherwise.
 */

export interface TrueSeries {
  payee: string;
  key: string;
  period: BillingPeriod;
  price: string;
  ongoing: boolean;
}

/** A subscription's bookings: texts vary per booking ({card}, {ref}, {code}, {date} filled in each time). */
interface Template {
  payee: string;
  texts: string[];
  period: BillingPeriod;
  price: string;
  /** 'card' bookings land on the day or the next; 'debit' ones on the next business day. */
  booking: 'card' | 'debit';
  /** The booked amount varies: up to ±5% (usage: the detector takes 10% as one price), or a USD price at a varying rate. */
  varies?: 'usage' | 'usd';
}

const WEEKLY = { cycle: 2, frequency: 1 } as const;
const MONTHLY = { cycle: 3, frequency: 1 } as const;
const sub = (
  payee: string,
  texts: string[],
  period: BillingPeriod,
  price: string,
  extra: Partial<Template> = {},
): Template => ({ payee, texts, period, price, booking: period.cycle === 2 ? 'card' : 'debit', ...extra });

/** In every statement: the cancelled one, the price rise, the month end, the foreign currency, the yearly one. */
const GYM = sub('FitX', ['FITX {card} {date}', 'SUMUP *FITX {ref}', 'FITX GMBH  BERLIN'], WEEKLY, '7.90');
const STREAMING = sub('Netflix', ['PAYPAL *NETFLIX.COM {ref} NL', 'NETFLIX.COM        AMSTERDAM'], MONTHLY, '12.99');
const CANCELLED = sub('Disney Plus', ['DISNEY PLUS {ref} LU', 'XXXX{card4} DISNEY PLUS {date}'], MONTHLY, '8.99');
const MONTH_END = sub(
  'Adobe Creative Cloud',
  ['ADOBE  *CREATIVE CLOUD {ref}', 'Adobe Creative Cloud'],
  MONTHLY,
  '24.59',
);
const FOREIGN = sub('GitHub', ['GITHUB.COM {ref} US', 'PAYPAL *GITHUB {ref}'], MONTHLY, '10.00', { varies: 'usd' });
const YEARLY = sub(
  'Namecheap',
  ['NAMECHEAP.COM {card}', 'PAYPAL *NAMECHEAP {ref} US'],
  { cycle: 4, frequency: 1 },
  '14.98',
);

/** The rest, some of them in each statement. */
const EXTRAS: Template[] = [
  sub(
    'HelloFresh',
    ['HELLOFRESH {ref}', 'PAYPAL *HELLOFRESH {ref} DE', 'HelloFresh SE'],
    { cycle: 2, frequency: 2 },
    '59.99',
  ),
  sub('Babbel', ['BABBEL.COM {card}', 'PP*BABBEL {ref}'], { cycle: 2, frequency: 4 }, '12.99'),
  sub('Stadtwerke Muenster', ['STADTWERKE MUENSTER GMBH MREF {ref}'], { cycle: 3, frequency: 2 }, '84.00'),
  sub('Allianz Versicherungs-AG', ['ALLIANZ VERSICHERUNGS-AG {ref}'], { cycle: 3, frequency: 3 }, '45.30'),
  sub('HUK-Coburg', ['HUK-COBURG MREF {ref}', 'HUK COBURG  COBURG'], { cycle: 3, frequency: 6 }, '212.40'),
  sub('Hausverwaltung Schmidt', ['Hausverwaltung Schmidt'], MONTHLY, '950.00'),
  sub('Vodafone', ['VODAFONE GMBH {ref}', 'Vodafone GmbH'], MONTHLY, '29.99', { varies: 'usage' }),
  sub('Spotify', ['SPOTIFY P{code} STOCKHOLM', 'PAYPAL *SPOTIFY {ref}', 'Spotify AB'], MONTHLY, '10.99'),
  sub('Apple', ['APPLE.COM/BILL {ref} IE', 'APPLE.COM/BILL  CORK'], MONTHLY, '2.99'),
  sub('Apple', ['APPLE.COM/BILL {ref} IE'], { cycle: 4, frequency: 1 }, '49.99'),
];

const SUPERMARKETS = [
  'REWE MARKT GMBH {card} {date} {time}',
  'ALDI SUED SAGT DANKE {ref}',
  'LIDL DIENSTL {ref}',
  'EDEKA CENTER  HAMBURG',
];
const ONE_OFFS = [
  'MEDIAMARKT {ref}',
  'IKEA DEUTSCHLAND {card}',
  'AMZN Mktp DE*{code}',
  'DB VERTRIEB GMBH {ref}',
  'SQ *CAFE BLUE',
  'SHELL {ref} {date}',
  'Zalando SE',
];
const PEOPLE = ['Max Mustermann', 'Anna Schmidt', 'Jonas Weber'];
const HOLIDAYS = ['01-01', '05-01', '10-03', '12-25', '12-26'];

/** A reference day: statements end on it unless `from` is given (the generator never reads today). */
const REFERENCE = '2027-01-01';

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function generateStatement(
  seed: number,
  options: { from?: string; months?: number; currency?: string } = {},
): { transactions: BankTransaction[]; truth: TrueSeries[] } {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const months = options.months ?? 24;
  const currency = options.currency ?? 'EUR';
  const from = options.from ?? addMonths(REFERENCE, -months);
  const until = addDays(addMonths(from, months), -1);
  const transactions: Array<Omit<BankTransaction, 'line'>> = [];
  /** A booking of `kind` ("Lastschrift"); the remittance text goes to the description. */
  const book = (date: string, cents: number, text: string, kind: string, remittance = '') => {
    const filled = fill(text, date, random);
    // Some banks leave the payee empty and write the booking's kind and text in the description.
    const inDescription = random() < 0.2;
    transactions.push({
      date,
      amount: new Decimal(cents).dividedBy(100).toFixed(2),
      currency,
      payee: inDescription ? '' : filled,
      description: inDescription ? `${kind} ${filled}` : `${kind} ${remittance}`.trim(),
    });
  };

  const extras = [...EXTRAS].sort(() => random() - 0.5).slice(0, between(0, 6));
  const chosen = [GYM, STREAMING, CANCELLED, MONTH_END, FOREIGN, YEARLY, ...extras];
  const truth: TrueSeries[] = [];
  for (const template of chosen) {
    const offset = between(0, template.period.cycle === 2 ? 6 : template.period.cycle === 4 ? 330 : 27);
    let anchor = template === MONTH_END ? monthEnd(from, between(29, 31)) : addDays(from, offset);
    if (template.period.cycle === 2) while (isWeekend(anchor)) anchor = addDays(anchor, 1);
    const stop = template === CANCELLED ? addMonths(from, between(6, 16)) : until;
    const rise = template === STREAMING ? addMonths(from, between(6, 18)) : LAST_DATE;
    const schedule = {
      anchor,
      billingType: template.period.cycle === 2 ? BillingType.FixedDays : BillingType.CalendarDate,
      billingCycle: template.period.cycle,
      billingFrequency: template.period.frequency,
    };
    const price = new Decimal(template.price).times(100).toNumber();
    const risen = price + between(1, 3) * 100;
    let rate = new Decimal('0.92');
    let bookings = 0;
    for (const due of occurrencesBetween(schedule, anchor, stop)) {
      const date = bookingDate(due, template.booking, random);
      if (date > until) break;
      bookings++;
      const cents = due >= rise ? risen : price;
      let booked = cents;
      if (template.varies === 'usage')
        booked = new Decimal(cents)
          .times(0.95 + random() * 0.1)
          .toDecimalPlaces(0)
          .toNumber();
      if (template.varies === 'usd') {
        rate = Decimal.min(Decimal.max(rate.times(0.99 + random() * 0.02), '0.90'), '0.94');
        booked = rate.times(cents).toDecimalPlaces(0).toNumber();
      }
      book(
        date,
        -booked,
        pick(template.texts),
        template.booking === 'card' ? 'Kartenzahlung' : 'Lastschrift',
        template.varies === 'usd' ? `${template.price} USD Kurs ${rate.toFixed(4)}` : '',
      );
    }
    const shownToRecur = template.period.cycle === 4 || template.period.frequency >= 6 ? 2 : 3;
    if (bookings < shownToRecur) continue;
    const lastBooked = transactions[transactions.length - 1];
    truth.push({
      payee: template.payee,
      key: `${normalisePayee(template.payee).key}|${currency}|${template.period.cycle}/${template.period.frequency}`,
      period: template.period,
      price: lastBooked.amount.slice(1),
      ongoing: template !== CANCELLED,
    });
  }

  const shops = [...SUPERMARKETS].sort(() => random() - 0.5).slice(0, between(2, 3));
  for (let date = from; date <= until; date = addDays(date, 1)) {
    if (random() < 0.7) book(date, -between(300, 14_000), pick(shops), 'Kartenzahlung');
    if (random() < 0.05) book(date, -between(500, 25_000), pick(ONE_OFFS), 'Kartenzahlung');
    if (random() < 0.01) book(date, -between(1_000, 40_000), pick(PEOPLE), 'Ueberweisung');
    if (random() < 0.01) book(date, between(500, 8_000), pick(ONE_OFFS), 'Gutschrift', 'Erstattung');
    if (mustParse(date).day === 27) book(date, between(300_000, 320_000), 'ACME GmbH', 'Gutschrift', 'Gehalt');
  }
  transactions.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { transactions: transactions.map((transaction, i) => ({ ...transaction, line: i + 2 })), truth };
}

/** The first day `day` (29 to 31) of a 31-day month on or after `from`: a series clamped to shorter months. */
function monthEnd(from: string, day: number): string {
  for (let month = from; ; month = addMonths(month, 1)) {
    const { year, month: number } = mustParse(month);
    const date = formatDate({ year, month: number, day });
    if (daysInMonth(year, number) === 31 && date >= from) return date;
  }
}

function isWeekend(date: string): boolean {
  return [0, 6].includes((epochDay(date) + 4) % 7);
}

/** When a payment due on `due` is booked: card payments on the day or the next; debits on a business day. */
function bookingDate(due: string, booking: Template['booking'], random: () => number): string {
  if (booking === 'card') return random() < 0.2 ? addDays(due, 1) : due;
  let date = due;
  while (isWeekend(date) || HOLIDAYS.includes(date.slice(5))) date = addDays(date, 1);
  return date === due && random() < 0.1 ? addDays(due, 1) : date;
}

/** A booking text with this booking's card number, references, date and time. */
function fill(text: string, date: string, random: () => number): string {
  const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
  const { month, day } = mustParse(date);
  return text
    .replace('{card}', random() < 0.5 ? `${digits(4)} **** **** ${digits(4)}` : `XXXX${digits(4)}`)
    .replace('{card4}', digits(4))
    .replace('{ref}', digits(8 + Math.floor(random() * 5)))
    .replace('{code}', `${digits(1)}X${digits(2)}AB${digits(3)}`)
    .replace('{date}', `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.`)
    .replace('{time}', `${10 + Math.floor(random() * 10)}:${digits(1)}${digits(1)}`);
}

/**
 * A statement's detections against its truth. A detection matches an unmatched true series of the same payee
 * (the normalised payee and currency), one of the same period first; it is right when the period is.
 */
export function scoreDetection(
  detected: readonly DetectedSeries[],
  truth: readonly TrueSeries[],
): { detected: number; truths: number; matched: number; periodsRight: number } {
  const payeeOf = (key: string) => key.slice(0, key.lastIndexOf('|'));
  const open = [...truth];
  let matched = 0;
  let periodsRight = 0;
  for (const series of detected) {
    const samePayee = open.filter((candidate) => payeeOf(candidate.key) === payeeOf(series.key));
    const match = samePayee.find((candidate) => candidate.key === series.key) ?? samePayee[0];
    if (!match) continue;
    open.splice(open.indexOf(match), 1);
    matched++;
    if (match.key === series.key) periodsRight++;
  }
  return { detected: detected.length, truths: truth.length, matched, periodsRight };
}
