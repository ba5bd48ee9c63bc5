import ical, { ICalAlarmType } from 'ical-generator';
import { fromUtcTimestamp } from '../platform/db/timestamps';
import type { ReminderDefinition } from '../platform/reminder-scheduling';
import { periodOf, type Schedule } from '../subscriptions/payment-dates';

/** What a record's event is made from. */
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

/**
 * The RRULE reproducing a schedule's payment dates (payment-dates.ts): occurrence n is the anchor plus n
 * periods, and a monthly or yearly anchor past the 28th falls on the month's last day when the month is
 * shorter. RFC 5545 skips a month without the BYMONTHDAY asked for, so the 29th and 30th take the last of
 * 28..D that the month has (BYSETPOS=-1), and the 31st is the month's last day (-1).
 */
export function recurrenceRule(schedule: Schedule, until: string | null): string {
  const { months, days } = periodOf(schedule);
  const end = until ? `;UNTIL=${until.replaceAll('-', '')}` : '';
  if (months === 0) return `FREQ=DAILY;INTERVAL=${days}${end}`;
  const [, month, day] = schedule.anchor.split('-').map(Number);
  const monthDay = day <= 28 ? `BYMONTHDAY=${day}` : day === 31 ? 'BYMONTHDAY=-1' : `BYMONTHDAY=${[28, 29, 30].filter((d) => d <= day).join(',')};BYSETPOS=-1`;
  return months % 12 === 0 ? `FREQ=YEARLY;INTERVAL=${months / 12};BYMONTH=${month};${monthDay}${end}` : `FREQ=MONTHLY;INTERVAL=${months};${monthDay}${end}`;
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
 * midnight for a viewer elsewhere), so no VTIMEZONE is needed.
 */
export function renderCalendar(name: string, host: string, events: readonly FeedEvent[]): string {
  const calendar = ical({ name, prodId: { company: 'Subledger', product: 'Subledger', language: 'EN' } });
  for (const event of events) {
    const created = calendar.createEvent({
      id: `subscription-${event.id}@${host}`,
      start: event.schedule.anchor,
      allDay: true,
      stamp: fromUtcTimestamp(event.changedAt),
      summary: event.summary,
      description: event.description,
      url: event.url,
      repeating: event.recurring ? recurrenceRule(event.schedule, event.until) : null,
    });
    for (const reminder of event.reminders) {
      created.createAlarm({ type: ICalAlarmType.display, trigger: alarmOffsetSeconds(reminder), description: event.summary });
    }
  }
  return calendar.toString();
}
