import fc from 'fast-check';

import {
  addDays,
  addMonths,
  epochDay,
  fromEpochDay,
  isCalendarDate,
  isTimeZone,
  parseDate,
  todayIn,
} from '../../src/platform/dates';
import {
  lastOnOrBefore,
  nextOnOrAfter,
  occurrence,
  occurrencesBetween,
  type Schedule,
} from '../../src/subscriptions/payment-dates';

const monthly = (anchor: string, frequency = 1): Schedule => ({
  anchor,
  billingType: 2,
  billingCycle: 3,
  billingFrequency: frequency,
});
const yearly = (anchor: string): Schedule => ({ anchor, billingType: 2, billingCycle: 4, billingFrequency: 1 });

const dateArb = fc
  .record({
    year: fc.integer({ min: 1990, max: 2100 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
  })
  .map(({ year, month, day }) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`)
  .filter(isCalendarDate);
const scheduleArb = fc.record({
  anchor: dateArb,
  billingType: fc.constantFrom(1, 2),
  billingCycle: fc.constantFrom(1, 2, 3, 4),
  billingFrequency: fc.integer({ min: 1, max: 36 }),
});

describe('month-end and leap-year cases', () => {
  it('clamps Jan 31 monthly to the month end and comes back to the 31st', () => {
    const schedule = monthly('2025-01-31');
    expect([0, 1, 2, 3, 4].map((n) => occurrence(schedule, n))).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
    ]);
    expect(occurrence(monthly('2024-01-31'), 1)).toBe('2024-02-29');
  });

  it('steps a year from Feb 29 to Feb 28, and back to Feb 29 in the next leap year', () => {
    const schedule = yearly('2024-02-29');
    expect([1, 2, 3, 4].map((n) => occurrence(schedule, n))).toEqual([
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
  });

  it('crosses Dec 31 into the next year', () => {
    expect(occurrence(monthly('2025-12-31'), 1)).toBe('2026-01-31');
    expect(occurrence(monthly('2025-12-31'), 2)).toBe('2026-02-28');
    expect(occurrence({ anchor: '2025-12-31', billingType: 1, billingCycle: 1, billingFrequency: 1 }, 1)).toBe(
      '2026-01-01',
    );
  });

  it('uses fixed-day periods for billing_type 1 (month 30 days, year 365)', () => {
    expect(occurrence({ anchor: '2025-01-31', billingType: 1, billingCycle: 3, billingFrequency: 1 }, 1)).toBe(
      '2025-03-02',
    );
    expect(occurrence({ anchor: '2024-01-01', billingType: 1, billingCycle: 4, billingFrequency: 1 }, 1)).toBe(
      '2024-12-31',
    );
    expect(occurrence({ anchor: '2025-01-01', billingType: 1, billingCycle: 2, billingFrequency: 2 }, 1)).toBe(
      '2025-01-15',
    );
  });

  it('multiplies the period by the frequency (every 3 months)', () => {
    expect(occurrence(monthly('2025-11-30', 3), 1)).toBe('2026-02-28');
    expect(occurrence(monthly('2025-11-30', 3), 2)).toBe('2026-05-30');
  });

  it('rejects dates that are not on the calendar', () => {
    for (const text of ['2025-02-29', '2025-13-01', '2025-04-31', '2025-1-01', '20250101', '0000-01-01'])
      expect(parseDate(text)).toBeNull();
    expect(parseDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    for (const text of ['2025-0a-01', '2025-01-0 ', '+025-01-01', '2025/01/01', '2025-01-01 '])
      expect(parseDate(text)).toBeNull();
  });

  it('counts and formats days exactly as the UTC calendar of the runtime does, years 1 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_162, max: 2_932_895 }), (days) => {
        const text = new Date(days * 86_400_000).toISOString().slice(0, 10);
        expect(fromEpochDay(days)).toBe(text);
        expect(epochDay(text)).toBe(days);
        expect(addDays(text, 1)).toBe(new Date((days + 1) * 86_400_000).toISOString().slice(0, 10));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('next and last payment dates', () => {
  it('finds the next payment on or after today', () => {
    expect(nextOnOrAfter(monthly('2025-01-31'), '2025-03-01')).toBe('2025-03-31');
    expect(nextOnOrAfter(monthly('2025-01-31'), '2025-03-31')).toBe('2025-03-31');
    expect(nextOnOrAfter(monthly('2026-06-15'), '2025-01-01')).toBe('2026-06-15');
    expect(lastOnOrBefore(monthly('2025-01-31'), '2025-03-30')).toBe('2025-02-28');
    expect(lastOnOrBefore(monthly('2025-01-31'), '2025-03-31')).toBe('2025-03-31');
    expect(lastOnOrBefore(monthly('2026-06-15'), '2025-01-01')).toBeNull();
  });

  it('lists every payment date of a range', () => {
    expect(occurrencesBetween(monthly('2024-01-31'), '2024-01-01', '2024-06-30')).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
      '2024-06-30',
    ]);
    expect(occurrencesBetween(monthly('2024-01-31'), '2023-01-01', '2023-12-31')).toEqual([]);
  });
});

describe('properties of every schedule', () => {
  it('occurrences are at or after the anchor and strictly increasing', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 200 }), (schedule, n) => {
        const current = occurrence(schedule, n);
        expect(current >= schedule.anchor).toBe(true);
        expect(occurrence(schedule, n + 1) > current).toBe(true);
      }),
    );
  });

  it('calendar months never drift below the anchor day where the month has it', () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 300 }),
        (anchor, frequency, n) => {
          const anchorDay = Number(anchor.slice(8));
          const date = occurrence(monthly(anchor, frequency), n);
          const [year, month, day] = date.split('-').map(Number);
          const monthLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
          expect(day).toBe(Math.min(anchorDay, monthLength));
        },
      ),
    );
  });

  it('next payment is the first occurrence on or after today, and the last the one before it', () => {
    fc.assert(
      fc.property(scheduleArb, dateArb, (schedule, today) => {
        const next = nextOnOrAfter(schedule, today)!;
        expect(next >= today).toBe(true);
        const last = lastOnOrBefore(schedule, today);
        if (last === null) expect(schedule.anchor > today).toBe(true);
        else {
          expect(last <= today).toBe(true);
          expect(occurrencesBetween(schedule, addMonths(last, 0), next).filter((d) => d > last && d < next)).toEqual(
            [],
          );
        }
      }),
    );
  });

  it('a range lists exactly the occurrences inside it', () => {
    fc.assert(
      fc.property(scheduleArb, dateArb, fc.integer({ min: 0, max: 400 }), (schedule, from, span) => {
        const to = new Date((epochDay(from) + span) * 86_400_000).toISOString().slice(0, 10);
        const dates = occurrencesBetween(schedule, from, to);
        for (const date of dates) expect(date >= from && date <= to).toBe(true);
        expect(new Set(dates).size).toBe(dates.length);
        const brute: string[] = [];
        for (let n = 0; ; n++) {
          const date = occurrence(schedule, n);
          if (date > to) break;
          if (date >= from) brute.push(date);
        }
        expect(dates).toEqual(brute);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a schedule with an end (expiry_date)', () => {
  const monthly: Schedule = {
    anchor: '2026-01-31',
    billingType: 2,
    billingCycle: 3,
    billingFrequency: 1,
    until: '2026-04-30',
  };

  it('has no payment after its end; one on the end day counts', () => {
    expect(occurrencesBetween(monthly, '2026-01-01', '2026-12-31')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
    ]);
    expect(nextOnOrAfter(monthly, '2026-04-01')).toBe('2026-04-30');
    expect(nextOnOrAfter(monthly, '2026-05-01')).toBeNull();
    expect(lastOnOrBefore(monthly, '2027-01-01')).toBe('2026-04-30');
    expect(nextOnOrAfter({ ...monthly, until: '2026-04-29' }, '2026-04-01')).toBeNull();
    expect(lastOnOrBefore({ ...monthly, until: '2026-04-29' }, '2027-01-01')).toBe('2026-03-31');
  });

  it('is the schedule without an end, cut at the end', () => {
    fc.assert(
      fc.property(scheduleArb, dateArb, dateArb, (schedule, until, today) => {
        const ended = { ...schedule, until };
        const to = addDays(today, 400);
        expect(occurrencesBetween(ended, today, to)).toEqual(
          occurrencesBetween(schedule, today, to).filter((date) => date <= until),
        );
        const next = nextOnOrAfter(schedule, today)!;
        expect(nextOnOrAfter(ended, today)).toBe(next <= until ? next : null);
      }),
      { numRuns: 300 },
    );
  });
});

describe('today in a zone', () => {
  it('decides the date in the given zone', () => {
    const instant = new Date('2025-03-01T02:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2025-03-01');
    expect(todayIn('America/New_York', instant)).toBe('2025-02-28');
    expect(todayIn('Pacific/Kiritimati', new Date('2025-02-28T11:00:00Z'))).toBe('2025-03-01');
  });

  it('turns at local midnight, asked in any order (it keeps the last minute asked per zone)', () => {
    // Midnight in Berlin is 23:00 UTC in winter; Kolkata's +05:30 turns at 18:30 UTC.
    expect(todayIn('Europe/Berlin', new Date('2026-01-10T22:59:59.999Z'))).toBe('2026-01-10');
    expect(todayIn('Europe/Berlin', new Date('2026-01-10T22:59:00.000Z'))).toBe('2026-01-10');
    expect(todayIn('Europe/Berlin', new Date('2026-01-10T23:00:00.000Z'))).toBe('2026-01-11');
    expect(todayIn('Asia/Kolkata', new Date('2026-01-10T18:29:59Z'))).toBe('2026-01-10');
    expect(todayIn('Asia/Kolkata', new Date('2026-01-10T18:30:00Z'))).toBe('2026-01-11');
    expect(todayIn('Europe/Berlin', new Date('2026-01-10T22:59:30Z'))).toBe('2026-01-10');
    expect(todayIn('Europe/Berlin', new Date('2026-01-11T22:59:30Z'))).toBe('2026-01-11');
  });

  it('knows the runtime zone list', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
