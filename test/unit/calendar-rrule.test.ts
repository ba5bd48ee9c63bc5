import { rrulestr } from 'rrule';
import { recurrenceRule } from '../../src/calendar-feeds/calendar-ics';
import { occurrencesBetween, type Schedule } from '../../src/subscriptions/payment-dates';

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

function expand(schedule: Schedule, from: string, to: string, until: string | null = null): string[] {
  const rule = rrulestr(`DTSTART:${schedule.anchor.replaceAll('-', '')}T000000Z\nRRULE:${recurrenceRule(schedule, until)}`);
  return rule.between(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`), true).map(iso);
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
    if (random() < 0.3) schedule.until = `${Number(from.slice(0, 4)) + Math.floor(random() * 3)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-15`;
    const ours = occurrencesBetween(schedule, from, to);
    const theirs = expand(schedule, from, to, schedule.until ?? null);
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) mismatches.push({ schedule, from, to, ours: ours.slice(0, 4), theirs: theirs.slice(0, 4) });
  }
  expect(mismatches.slice(0, 3)).toEqual([]);
});

it('ends a record that ended on its last day', () => {
  const schedule = { anchor: '2026-01-31', billingType: 2, billingCycle: 3, billingFrequency: 1 };
  expect(recurrenceRule(schedule, '2026-05-15')).toBe('FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=-1;UNTIL=20260515');
  expect(expand(schedule, '2026-01-01', '2026-12-31', '2026-05-15')).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
  expect(recurrenceRule({ anchor: '2024-02-29', billingType: 2, billingCycle: 4, billingFrequency: 1 }, null)).toBe(
    'FREQ=YEARLY;INTERVAL=1;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1',
  );
});
