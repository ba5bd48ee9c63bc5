import ical, { ICalAlarmType } from 'ical-generator';

import { formatDate, monthsAfter, mustParse } from '../platform/dates';
import { fromUtcTimestamp } from '../platform/db/timestamps';
import type { ReminderDefinition } from '../platform/reminder-scheduling';
import { periodOf, type Schedule } from '../subscriptions/payment-dates';

/** What a record's events are made from (one, or a few when its rule is split: see recurrences). */
export interface FeedEvent {
  id: number;
  summary: string;
  description: string;
  url: string | null;
  schedule: Schedule;
  recurring: boolean;
  /** The last day payments may fall on (a record that ended), or null. */
  until: string | null;
  /** The record's last change, as a UTC timestamp `YYYY-MM-DD HH:MM:SS`: the event's DTSTAMP. */
  changedAt: string;
  /** Alarms, when the feed includes reminders. */
  reminders: ReadonlyArray<Pick<ReminderDefinition, 'timePeriod' | 'timeCycle' | 'time'>>;
}

/** One recurring event of a record: its first payment date (DTSTART) and its RRULE. */
export interface Recurrence {
  start: string;
  rule: string;
}

const greatestCommonDivisor = (a: number, b: number): number => (b === 0 ? a : greatestCommonDivisor(b, a % b));

/**
 * The recurring events reproducing a schedule's payment dates (payment-dates.ts): occurrence n is the anchor
 * plus n periods, on the anchor's day, or the month's last day when the month is shorter. Each event's
 * DTSTART is one of its dates, and its rule names only days every month it names has (or -1, the last day),
 * so no engine has to choose between skipping and clamping a missing day.
 *
 * A day up to the 28th is in every month, and the 31st is every month's last day (-1): one rule. The 29th
 * and 30th are the anchor's day in every month but February, where they are its last day. One rule cannot
 * say that without BYSETPOS over several BYMONTHDAYs, which ical.js (Thunderbird, Nextcloud) expands wrong
 * (`BYMONTHDAY=28,29,30;BYSETPOS=-1` gives the 28th, 29th and 30th), and RDATEs would list Februaries up
 * to some horizon, which some readers ignore. So the months are split: the period's months come round
 * every `years` years (the period over 12, reduced), each year of that cycle is a yearly rule on its months
 * but February (`BYMONTH=…;BYMONTHDAY=<day>`, INTERVAL=years), and February, met once a cycle at most, is
 * a yearly rule on its last day. (ical.js also ignores INTERVAL when a monthly rule has BYMONTH, so yearly
 * rules carry the months.) The first event starts on the anchor; those starting after `until` are left out.
 */
export function recurrences(schedule: Schedule, until: string | null): Recurrence[] {
  const { months, days } = periodOf(schedule);
  const end = until ? `;UNTIL=${until.replaceAll('-', '')}` : '';
  const { anchor } = schedule;
  if (months === 0) return [{ start: anchor, rule: `FREQ=DAILY;INTERVAL=${days}${end}` }];
  const anchorDate = mustParse(anchor);
  if (months % 12 === 0 && anchorDate.month !== 2) {
    // A yearly date outside February is in every year. (ical.js shifts `BYMONTH=1;BYMONTHDAY=-1` by a year
    // when INTERVAL is over 1, so the 31st is named, not -1.)
    return [
      {
        start: anchor,
        rule: `FREQ=YEARLY;INTERVAL=${months / 12};BYMONTH=${anchorDate.month};BYMONTHDAY=${anchorDate.day}${end}`,
      },
    ];
  }
  if (anchorDate.day <= 28 || anchorDate.day === 31) {
    const monthDay = `BYMONTHDAY=${anchorDate.day === 31 ? -1 : anchorDate.day}`;
    const rule =
      months % 12 === 0
        ? `FREQ=YEARLY;INTERVAL=${months / 12};BYMONTH=2;${monthDay}`
        : `FREQ=MONTHLY;INTERVAL=${months};${monthDay}`;
    return [{ start: anchor, rule: `${rule}${end}` }];
  }
  const years = months / greatestCommonDivisor(months, 12);
  // One cycle of payments (years × 12 / months of them) meets each month of each year of the cycle once.
  const parts = new Map<string, { start: string; months: number[] }>();
  const perCycle = (years * 12) / months;
  for (let n = 0; n < perCycle; n++) {
    const date = monthsAfter(anchorDate, n * months);
    const key = date.month === 2 ? 'february' : String((date.year - anchorDate.year) % years);
    const part = parts.get(key) ?? { start: formatDate(date), months: [] };
    part.months.push(date.month);
    parts.set(key, part);
  }
  return [...parts.entries()]
    .map(([key, part]) => {
      const [byMonth, byMonthDay] =
        key === 'february' ? ['2', -1] : [part.months.sort((a, b) => a - b).join(','), anchorDate.day];
      return {
        start: part.start,
        rule: `FREQ=YEARLY;INTERVAL=${years};BYMONTH=${byMonth};BYMONTHDAY=${byMonthDay}${end}`,
      };
    })
    .sort((a, b) => (a.start < b.start ? -1 : 1))
    .filter((part, index) => index === 0 || !until || part.start <= until);
}

/**
 * Seconds before the all-day event's start (the payment date's midnight, floating) that a reminder fires:
 * the reminder scheduler's offset (days or weeks before, at the definition's time of day). A month offset
 * varies with the months it spans; it is given as 30 days a month.
 */
export function alarmOffsetSeconds(definition: Pick<ReminderDefinition, 'timePeriod' | 'timeCycle' | 'time'>): number {
  const daysBefore = definition.timePeriod * (definition.timeCycle === 2 ? 7 : definition.timeCycle === 3 ? 30 : 1);
  const [hours, minutes] = definition.time.split(':').map(Number);
  return daysBefore * 86_400 - (hours * 3600 + minutes * 60);
}

/**
 * The feed as iCalendar text. Events are all-day DATE values: payments fall on calendar dates in the record's
 * own zone, which a floating date keeps in any viewer's zone (a DATE-TIME with TZID would move them across
 * midnight for a viewer elsewhere), so no VTIMEZONE is needed. A record is one event, or a few when its
 * rule is split (anchors on the 29th or 30th): each carries the record's summary and alarms.
 */
export function renderCalendar(name: string, host: string, events: readonly FeedEvent[]): string {
  const calendar = ical({ name, prodId: { company: 'Subledger', product: 'Subledger', language: 'EN' } });
  for (const event of events) {
    const parts: ReadonlyArray<Recurrence | { start: string; rule: null }> = event.recurring
      ? recurrences(event.schedule, event.until)
      : [{ start: event.schedule.anchor, rule: null }];
    // The record's first (or only) event keeps the record's UID; a split rule's further events number on from 2.
    for (const [index, part] of parts.entries()) {
      const created = calendar.createEvent({
        id: `subscription-${event.id}${index === 0 ? '' : `-${index + 1}`}@${host}`,
        start: part.start,
        allDay: true,
        stamp: fromUtcTimestamp(event.changedAt),
        summary: event.summary,
        description: event.description,
        url: event.url,
        repeating: part.rule,
      });
      for (const reminder of event.reminders) {
        created.createAlarm({
          type: ICalAlarmType.display,
          trigger: alarmOffsetSeconds(reminder),
          description: event.summary,
        });
      }
    }
  }
  return calendar.toString();
}
