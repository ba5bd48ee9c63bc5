import { detectSeries } from '../../src/detection/detect';
import { normalisePayee } from '../../src/detection/payee-names';
import type { BankTransaction } from '../../src/detection/statement';
import { addDays, addMonths } from '../../src/platform/dates';
import { generateStatement, scoreDetection } from '../support/statement-generator';

const payment = (date: string, amount: string, payee = 'NETFLIX.COM', currency = 'EUR'): BankTransaction => ({
  date,
  amount,
  currency,
  payee,
  description: '',
  line: 0,
});

/** Bookings `step` days or months apart from `from`, each moved by the next of `jitter` (repeated). */
function bookings(
  from: string,
  count: number,
  step: { days?: number; months?: number },
  jitter: number[] = [0],
  amount = '-9.99',
  payee?: string,
): BankTransaction[] {
  return Array.from({ length: count }, (_, i) => {
    const due = step.months ? addMonths(from, step.months * i) : addDays(from, step.days! * i);
    return payment(addDays(due, jitter[i % jitter.length]), amount, payee);
  });
}

describe('normalisePayee', () => {
  it.each([
    ['PAYPAL *NETFLIX.COM 4029357733 NL', 'netflix', 'Netflix'],
    ['NETFLIX.COM        AMSTERDAM', 'netflix', 'Netflix'],
    ['4871 **** **** 1234 REWE MARKT GMBH 31.01. 14:32', 'rewe markt', 'Rewe Markt'],
    ['XXXX1234 DISNEY PLUS 2026-01-31', 'disney plus', 'Disney Plus'],
    ['SPOTIFY P1A2B3C4D5 STOCKHOLM', 'spotify', 'Spotify'],
    ['Spotify AB', 'spotify', 'Spotify'],
    ['Netflix International B.V.', 'netflix international', 'Netflix International'],
    ['HUK-COBURG MREF 123456', 'huk coburg', 'Huk Coburg'],
    ['Stadtwerke Muenster GmbH & Co. KG', 'stadtwerke muenster', 'Stadtwerke Muenster'],
    ['SQ *CAFE BLUE 01/31', 'cafe blue', 'Cafe Blue'],
    ['GOOGLE *YouTube Premium', 'youtube premium', 'Youtube Premium'],
    ['APPLE.COM/BILL 1234567 IE', 'apple', 'Apple'],
    ['AMZN Mktp DE*2X4AB12C3', 'amazon marketplace', 'Amazon Marketplace'],
    ['Kartenzahlung SUMUP *FITX 77120033', 'fitx', 'Fitx'],
    ['1&1 Telecom GmbH', '1&1 telecom', '1&1 Telecom'],
  ])('%s → %s', (text, key, display) => {
    expect(normalisePayee(text)).toEqual({ key, display });
  });
});

describe('detectSeries', () => {
  it.each([
    ['weekly', { days: 7 }, 20, [0, 1, 0, -1], { cycle: 2, frequency: 1 }],
    ['every 2 weeks', { days: 14 }, 12, [0, 2, -1], { cycle: 2, frequency: 2 }],
    ['every 4 weeks', { days: 28 }, 8, [1, -1, 0], { cycle: 2, frequency: 4 }],
    ['monthly', { months: 1 }, 12, [0, 3, 1, -2], { cycle: 3, frequency: 1 }],
    ['every 2 months', { months: 2 }, 6, [0, 2, 3], { cycle: 3, frequency: 2 }],
    ['every 3 months', { months: 3 }, 4, [1, 3, 0], { cycle: 3, frequency: 3 }],
    ['every 6 months', { months: 6 }, 3, [0, 3], { cycle: 3, frequency: 6 }],
    ['yearly', { months: 12 }, 2, [0, 2], { cycle: 4, frequency: 1 }],
  ])('finds a series paid %s, bookings jittered', (_, step, count, jitter, period) => {
    const series = detectSeries(bookings('2027-01-04', count, step, jitter));
    expect(series).toHaveLength(1);
    expect(series[0]).toMatchObject({
      key: `netflix|EUR|${period.cycle}/${period.frequency}`,
      payee: 'Netflix',
      period,
      price: '9.99',
      priceSteps: [{ effectiveFrom: series[0].payments[0].date, price: '9.99' }],
      ongoing: true,
    });
    expect(series[0].payments).toHaveLength(count);
    expect(series[0].reasons).toContain('same amount');
    expect(series[0].confidence).toBeGreaterThan(0.4);
  });

  it('follows a monthly payment on the 31st through the months of a leap year', () => {
    const dates = ['2028-01-31', '2028-02-29', '2028-03-31', '2028-05-01', '2028-05-31', '2028-06-30', '2028-07-31'];
    const [series] = detectSeries(dates.map((date) => payment(date, '-24.59', 'ADOBE *CREATIVE CLOUD')));
    expect(series.payments.map(({ date }) => date)).toEqual(dates);
    expect(series.period).toEqual({ cycle: 3, frequency: 1 });
    expect(series.nextDate).toBe('2028-08-31');
    expect(series.reasons[0]).toBe('7 payments, monthly on the 31st ± 1 day');
  });

  it('reads a lasting change of amount as one series with two price steps', () => {
    const before = bookings('2027-01-03', 5, { months: 1 }, [0], '-9.99');
    const after = bookings('2027-06-03', 5, { months: 1 }, [0], '-12.99');
    const series = detectSeries([...before, ...after]);
    expect(series).toHaveLength(1);
    expect(series[0].price).toBe('12.99');
    expect(series[0].priceSteps).toEqual([
      { effectiveFrom: '2027-01-03', price: '9.99' },
      { effectiveFrom: '2027-06-03', price: '12.99' },
    ]);
    expect(series[0].reasons).toContain('price rose from 9.99 to 12.99 on 2027-06-03');
  });

  it('proposes no groceries, one-off purchases, refunds or salary', () => {
    const transactions: BankTransaction[] = [];
    for (let i = 0; i < 300; i++) {
      const cents = 300 + ((Math.imul(i + 1, 2_654_435_761) >>> 0) % 11_700);
      const shop = ['REWE MARKT GMBH', 'ALDI SUED', 'LIDL'][i % 3];
      transactions.push(payment(addDays('2027-01-01', Math.floor(i * 2.4)), `-${(cents / 100).toFixed(2)}`, shop));
    }
    transactions.push(...bookings('2027-01-27', 24, { months: 1 }, [0], '3150.00', 'ACME GmbH'));
    transactions.push(payment('2027-03-02', '-499.00', 'MEDIAMARKT'), payment('2027-05-02', '-79.00', 'MEDIAMARKT'));
    transactions.push(...bookings('2027-02-10', 4, { months: 1 }, [0], '15.00', 'AMZN Mktp DE*2X4AB12C3'));
    expect(detectSeries(transactions)).toEqual([]);
  });

  it('reports payments that stopped as not ongoing', () => {
    const [stopped] = detectSeries(bookings('2027-01-03', 6, { months: 1 }), { until: '2027-12-31' });
    expect(stopped.ongoing).toBe(false);
    expect(stopped.nextDate).toBe('2027-07-03');
    expect(stopped.reasons).toContain('stopped: nothing since 2027-06-03, due 2027-07-03');
    const [due] = detectSeries(bookings('2027-01-03', 6, { months: 1 }), { until: '2027-07-05' });
    expect(due.ongoing).toBe(true);
  });

  it('tolerates one missing payment, not two in a row', () => {
    const monthly = bookings('2027-01-05', 12, { months: 1 });
    const [series] = detectSeries(monthly.filter((_, i) => i !== 5));
    expect(series.payments).toHaveLength(11);
    expect(series.reasons).toContain('one payment missing');
    const split = detectSeries(monthly.filter((_, i) => i !== 5 && i !== 6));
    expect(split.map((found) => found.payments.length)).not.toContain(10);
  });

  it('tells two series at one merchant apart', () => {
    const monthly = bookings('2027-01-22', 24, { months: 1 }, [0, 1], '-2.99', 'APPLE.COM/BILL  CORK');
    const yearly = bookings('2027-03-08', 2, { months: 12 }, [0, 1], '-49.99', 'APPLE.COM/BILL 88123 IE');
    const series = detectSeries([...yearly, ...monthly]);
    expect(series.map(({ key, price, payments }) => [key, price, payments.length])).toEqual([
      ['apple|EUR|3/1', '2.99', 24],
      ['apple|EUR|4/1', '49.99', 2],
    ]);
  });

  it('keeps currencies apart and answers nothing for an empty statement', () => {
    const euros = bookings('2027-01-05', 4, { months: 1 });
    const dollars = euros.map((transaction) => ({ ...transaction, currency: 'USD', amount: '-10.99' }));
    expect(detectSeries([...euros, ...dollars]).map(({ key }) => key)).toEqual(['netflix|EUR|3/1', 'netflix|USD|3/1']);
    expect(detectSeries([])).toEqual([]);
  });
});

describe('generated statements', () => {
  it('are the same for the same seed and span the months asked', () => {
    const first = generateStatement(7, { from: '2028-03-01', months: 24 });
    expect(generateStatement(7, { from: '2028-03-01', months: 24 })).toEqual(first);
    const dates = first.transactions.map(({ date }) => date);
    expect(dates[0] >= '2028-03-01' && dates[dates.length - 1] <= '2030-02-28').toBe(true);
    expect(first.truth.length).toBeGreaterThanOrEqual(6);
    expect(first.truth.length).toBeLessThanOrEqual(12);
  });

  it('are read with precision ≥ 0.95 and recall ≥ 0.90 over 20 seeds, periods and endings right', () => {
    const totals = { detected: 0, truths: 0, matched: 0, periodsRight: 0 };
    for (let seed = 101; seed <= 120; seed++) {
      const { transactions, truth } = generateStatement(seed, { from: '2026-02-01' });
      const detected = detectSeries(transactions);
      const score = scoreDetection(detected, truth);
      for (const figure of Object.keys(totals) as Array<keyof typeof totals>) totals[figure] += score[figure];
      for (const series of truth) {
        const found = detected.find(({ key }) => key === series.key);
        if (found) expect([series.key, found.ongoing, found.price]).toEqual([series.key, series.ongoing, series.price]);
      }
    }
    expect(totals.periodsRight / totals.detected).toBeGreaterThanOrEqual(0.95);
    expect(totals.periodsRight / totals.truths).toBeGreaterThanOrEqual(0.9);
    expect(totals.periodsRight).toBe(totals.matched);
  });
});
