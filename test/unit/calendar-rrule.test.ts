import { rrulestr } from 'rrule';

import { type FeedEvent, recurrences, renderCalendar } from '../../src/calendar-feeds/calendar-ics';
import { addMonths, daysInMonth } from '../../src/platform/dates';
import { occurrencesBetween, type Schedule } from '../../src/subscriptions/payment-dates';
import { ENGINES, ICAL } from '../support/ics-engines';
import { dayOfMonthFromToday, today } from '../support/test-clock';

/**
 * The feed's RRULEs, expanded by an independent RFC 5545 implementation (rrule), give exactly the payment
 * dates of payment-dates.ts: every billing type, cycle and frequency, anchors on every day of the month
 * (month ends and Feb 29 included), with and without an end, over three years.
 */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** One event's dates in [from, to], expanded by rrule from its DTSTART (a date) and RRULE. */
function rruleDates(start: string, rule: string, from: string, to: string): string[] {
  const expanded = rrulestr(`DTSTART:${start.replaceAll('-', '')}T000000Z\nRRULE:${rule}`);
  return expanded.between(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`), true).map(iso);
}

/** One event's dates in [from, to], expanded by ical.js (Thunderbird's and Nextcloud's engine). */
function icalJsDates(start: string, rule: string, from: string, to: string): string[] {
  const iterator = ICAL.Recur.fromString(rule).iterator(ICAL.Time.fromDateString(start));
  const dates: string[] = [];
  for (let next = iterator.next(); next && next.toString() <= to; next = iterator.next())
    if (next.toString() >= from) dates.push(next.toString());
  return dates;
}

/** A schedule's dates from all of its events, as one engine expands them. */
function expand(
  schedule: Schedule,
  from: string,
  to: string,
  until: string | null = null,
  engine = rruleDates,
): string[] {
  return recurrences(schedule, until)
    .flatMap((part) => engine(part.start, part.rule, from, to))
    .sort();
}

it('reproduces 5,000 generated schedules date for date over three years', () => {
  const random = seeded(20261124);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const mismatches: unknown[] = [];
  for (let i = 0; i < 5_000; i++) {
    const year = 2020 + Math.floor(random() * 8);
    const month = 1 + Math.floor(random() * 12);
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    // Month ends are drawn as often as the rest, so the 29th-31st and Feb 29 come up in every run.
    const day = random() < 0.4 ? lastDay - Math.floor(random() * 3) : 1 + Math.floor(random() * lastDay);
    const billingCycle = pick([1, 2, 3, 4]);
    const schedule: Schedule = {
      anchor: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      billingType: pick([1, 2]),
      billingCycle,
      billingFrequency: 1 + Math.floor(random() * (billingCycle <= 2 ? 30 : 12)),
    };
    const from = `${2021 + Math.floor(random() * 5)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-01`;
    const to = `${Number(from.slice(0, 4)) + 3}${from.slice(4)}`;
    // A third of them end (expiry_date) within the range: the feed's UNTIL and the schedule's end agree.
    if (random() < 0.3)
      schedule.until = `${Number(from.slice(0, 4)) + Math.floor(random() * 3)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-15`;
    const ours = occurrencesBetween(schedule, from, to);
    // ical.js too where engines may part: month steps (fixed-day rules are FREQ=DAILY, slow to iterate there).
    const monthly = schedule.billingType === 2 && billingCycle >= 3;
    for (const engine of monthly ? [rruleDates, icalJsDates] : [rruleDates]) {
      const theirs = expand(schedule, from, to, schedule.until ?? null, engine);
      let at = 0;
      while (at < Math.max(ours.length, theirs.length) && ours[at] === theirs[at]) at++;
      if (at < Math.max(ours.length, theirs.length))
        mismatches.push({
          engine: engine.name,
          schedule,
          from,
          to,
          ours: ours.slice(at, at + 3),
          theirs: theirs.slice(at, at + 3),
        });
    }
  }
  expect(mismatches.slice(0, 3)).toEqual([]);
});

it('ends a record that ended on its last day', () => {
  const schedule = { anchor: '2026-01-31', billingType: 2, billingCycle: 3, billingFrequency: 1 };
  expect(recurrences(schedule, '2026-05-15')).toEqual([
    { start: '2026-01-31', rule: 'FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1;UNTIL=20260515' },
  ]);
  expect(expand(schedule, '2026-01-01', '2026-12-31', '2026-05-15')).toEqual([
    '2026-01-31',
    '2026-02-28',
    '2026-03-31',
    '2026-04-30',
  ]);
  expect(recurrences({ anchor: '2024-02-29', billingType: 2, billingCycle: 4, billingFrequency: 1 }, null)).toEqual([
    { start: '2024-02-29', rule: 'FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1' },
  ]);
  // A split rule's event that would start after the end is left out.
  expect(
    recurrences({ anchor: '2025-12-30', billingType: 2, billingCycle: 3, billingFrequency: 1 }, '2026-01-31'),
  ).toEqual([
    {
      start: '2025-12-30',
      rule: 'FREQ=YEARLY;INTERVAL=1;BYMONTH=1,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=30;UNTIL=20260131',
    },
  ]);
});

it('splits an anchor on the 29th or 30th into rules without BYSETPOS, on days every month named has', () => {
  // The 30th of this month, or of the next when this one is February: a monthly payment on that day.
  const month = [0, 1].find((months) => Number(dayOfMonthFromToday(months, 31).slice(8)) >= 30)!;
  const anchor = dayOfMonthFromToday(month, 30);
  const parts = recurrences({ anchor, billingType: 2, billingCycle: 3, billingFrequency: 1 }, null);
  const february = addMonths(anchor, (14 - Number(anchor.slice(5, 7))) % 12);
  expect(parts).toEqual([
    { start: anchor, rule: 'FREQ=YEARLY;INTERVAL=1;BYMONTH=1,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=30' },
    { start: february, rule: 'FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=-1' },
  ]);
  // The case: ical.js gives one payment in each month, the 30th, and February's last day.
  const dates = expand(
    { anchor, billingType: 2, billingCycle: 3, billingFrequency: 1 },
    anchor,
    addMonths(anchor, 24),
    null,
    icalJsDates,
  );
  expect(dates).toHaveLength(25);
  expect(new Set(dates.map((date) => date.slice(0, 7))).size).toBe(25);
  expect(dates.filter((date) => date.slice(5, 7) !== '02').every((date) => date.endsWith('-30'))).toBe(true);
  expect(
    dates
      .filter((date) => date.slice(5, 7) === '02')
      .every((date) => Number(date.slice(8)) === daysInMonth(Number(date.slice(0, 4)), 2)),
  ).toBe(true);
});

/** The leap days from `years` years before today's year to as many after. */
function leapDaysAround(years: number): string[] {
  const year = Number(today().slice(0, 4));
  const days: string[] = [];
  for (let y = year - years; y <= year + years; y++) if (daysInMonth(y, 2) === 29) days.push(`${y}-02-29`);
  return days;
}

it('gives in ical.js, node-ical and rrule the dates of payment-dates for anchors on the 28th-31st and Feb 29, over six years', () => {
  // Anchors on the 28th to the 31st of each of the 14 months before today and the 3 after (months without
  // the day are left out), so every phase of a 2- and 3-month cycle against February comes up on any day.
  const anchors: string[] = [];
  for (let months = -14; months <= 3; months++) {
    for (const day of [28, 29, 30, 31]) {
      const anchor = dayOfMonthFromToday(months, day);
      if (Number(anchor.slice(8)) === day) anchors.push(anchor);
    }
  }
  const schedules: Schedule[] = [];
  for (const anchor of anchors) {
    for (const billingFrequency of [1, 2, 3])
      schedules.push({ anchor, billingType: 2, billingCycle: 3, billingFrequency });
    schedules.push({ anchor, billingType: 2, billingCycle: 4, billingFrequency: 1 });
  }
  for (const leapDay of leapDaysAround(8)) {
    for (const billingFrequency of [1, 2, 4])
      schedules.push({ anchor: leapDay, billingType: 2, billingCycle: 4, billingFrequency });
    for (const billingFrequency of [1, 2, 3])
      schedules.push({ anchor: leapDay, billingType: 2, billingCycle: 3, billingFrequency });
  }
  // Fixed-day periods (billing_type 1): 30 and 365 days.
  for (const anchor of anchors.slice(0, 8)) {
    schedules.push(
      { anchor, billingType: 1, billingCycle: 3, billingFrequency: 1 },
      { anchor, billingType: 1, billingCycle: 4, billingFrequency: 1 },
    );
  }
  const events: FeedEvent[] = schedules.map((schedule, index) => ({
    id: index + 1,
    summary: `Record ${index + 1}`,
    description: '',
    url: null,
    schedule,
    recurring: true,
    until: null,
    changedAt: '2020-01-01 00:00:00',
    reminders: [],
  }));
  const text = renderCalendar('Payments', 'subledger.test', events);
  expect(text).not.toContain('BYSETPOS');
  const [from, to] = [addMonths(today(), -12), addMonths(today(), 60)];
  const ours = new Map(events.map((event) => [event.id, occurrencesBetween(event.schedule, from, to)]));
  // The window holds a leap day and month ends of every length.
  const all = [...ours.values()].flat();
  expect(all.some((date) => date.endsWith('-02-29'))).toBe(true);
  expect(all.some((date) => date.endsWith('-02-28'))).toBe(true);
  for (const [engine, expansion] of Object.entries(ENGINES)) {
    const theirs = expansion(text, from, to);
    const mismatches = events
      .filter((event) => JSON.stringify(theirs.get(event.id) ?? []) !== JSON.stringify(ours.get(event.id)))
      .map((event) => ({
        engine,
        schedule: event.schedule,
        ours: ours.get(event.id)!.slice(0, 6),
        theirs: theirs.get(event.id)?.slice(0, 6),
      }));
    expect(mismatches.slice(0, 3)).toEqual([]);
  }
});
