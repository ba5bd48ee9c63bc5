import { DateTime } from 'luxon';
import { Status } from '../subscriptions/codes';
import { addDays, addMonths, nextOnOrAfter, todayIn, type Schedule } from '../subscriptions/payment-dates';

/** What a reminder is about: a payment date or the last day of the refund window. */
export type ReminderKind = 'payment' | 'refund';

export interface ReminderDefinition {
  id: number;
  timePeriod: number;
  /** 1 days, 2 weeks, 3 months; null means days. */
  timeCycle: number | null;
  /** Local `HH:MM:SS` in `timezone`. */
  time: string;
  timezone: string;
  /** 1 payment date, 2 refund date, 3 both. */
  alertCondition: number;
  /** 1 subscriptions, 2 lifetime purchases, 3 all. */
  alertSubsType: number;
}

export interface RemindedRecord {
  type: number;
  status: number;
  recurring: number;
  timezone: string;
  schedule: Schedule;
  /** payment_date + refund_days, or null. */
  refundDate: string | null;
}

/** One reminder owed: unique per (record, definition, kind, date). */
export interface ReminderTarget {
  alertId: number;
  kind: ReminderKind;
  /** The payment or refund date reminded of. */
  date: string;
  /** When it fires, as a UTC instant. */
  fireAt: Date;
}

const LIFETIME = 3;

/** The local date `timePeriod × timeCycle` before `date` (months clamp at month end like payment dates). */
export function localFireDate(date: string, definition: Pick<ReminderDefinition, 'timePeriod' | 'timeCycle'>): string {
  if (definition.timeCycle === 3) return addMonths(date, -definition.timePeriod);
  return addDays(date, -definition.timePeriod * (definition.timeCycle === 2 ? 7 : 1));
}

/**
 * The instant of a local date and time in a zone. Across a daylight-saving switch the wall-clock time is kept
 * (09:00 stays 09:00 local); a time that does not exist on the switch day moves forward with the clock.
 */
export function instantOf(localDate: string, time: string, timezone: string): Date {
  return DateTime.fromISO(`${localDate}T${time}`, { zone: timezone }).toJSDate();
}

function appliesTo(record: RemindedRecord, definition: ReminderDefinition): boolean {
  if (definition.alertSubsType === 1) return record.type !== LIFETIME;
  if (definition.alertSubsType === 2) return record.type === LIFETIME;
  return true;
}

/**
 * The reminders a record owes now: for each definition, the next payment date (recurring records) and the
 * refund date, when still ahead in the record's zone. A fire time already past still counts while its date
 * is ahead, so a reminder missed while the service was down fires once it runs again. Only Active records
 * are reminded of anything.
 */
export function reminderTargets(record: RemindedRecord, definitions: ReminderDefinition[], now: Date): ReminderTarget[] {
  if (record.status !== Status.Active) return [];
  const today = todayIn(record.timezone, now);
  const nextPayment = record.recurring === 1 ? nextOnOrAfter(record.schedule, today) : record.schedule.anchor >= today ? record.schedule.anchor : null;
  const refund = record.refundDate !== null && record.refundDate >= today ? record.refundDate : null;
  const targets: ReminderTarget[] = [];
  for (const definition of definitions) {
    if (!appliesTo(record, definition)) continue;
    const dates: Array<[ReminderKind, string | null]> = [];
    if (definition.alertCondition === 1 || definition.alertCondition === 3) dates.push(['payment', nextPayment]);
    if (definition.alertCondition === 2 || definition.alertCondition === 3) dates.push(['refund', refund]);
    for (const [kind, date] of dates) {
      if (date === null) continue;
      targets.push({ alertId: definition.id, kind, date, fireAt: instantOf(localFireDate(date, definition), definition.time, definition.timezone) });
    }
  }
  return targets;
}
