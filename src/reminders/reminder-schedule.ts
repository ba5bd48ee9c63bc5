import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';

import { remindedKinds, type ReminderKind } from '../alerts/alert.input';
import type { ReminderDefinition } from '../alerts/alert.repository';
import { addDays, addMonths, todayIn } from '../platform/dates';
import { Status } from '../subscriptions/codes';
import { nextOnOrAfter, type Schedule } from '../subscriptions/payment-dates';

export type { ReminderDefinition, ReminderKind };

export interface RemindedRecord {
  type: number;
  status: number;
  recurring: number;
  timezone: string;
  schedule: Schedule;
  /** payment_date + refund_days, or null. */
  refundDate: string | null;
  /** The last day to cancel the contract (contract_expiry − contract_notice_days), or null. */
  noticeDate: string | null;
}

/** One reminder owed: unique per (record, definition, kind, date). */
export interface ReminderTarget {
  alertId: number;
  kind: ReminderKind;
  /** The payment, refund or notice date reminded of. */
  date: string;
  /** When it fires, as a UTC instant. */
  fireAt: Date;
}

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
  const key = `${localDate}T${time} ${timezone}`;
  let epochMs = instants.get(key);
  if (epochMs === undefined) {
    epochMs = DateTime.fromISO(`${localDate}T${time}`, { zone: timezone }).toMillis();
    instants.set(key, epochMs);
  }
  return new Date(epochMs);
}

/**
 * instantOf's answers by local date, time and zone: luxon takes ~20 us for one (zone offsets through Intl),
 * several per record a create or an update reschedules, and records share their dates and alerts' times.
 */
const instants = new LRUCache<string, number>({ max: 10_000 });

/** Whether a definition reminds records of this type (one of no type, the system default, reminds every type). */
export function appliesTo(
  record: Pick<RemindedRecord, 'type'>,
  definition: Pick<ReminderDefinition, 'alertSubsType'>,
): boolean {
  return definition.alertSubsType === null || definition.alertSubsType === record.type;
}

/**
 * The reminders a record owes now: for each definition, the next payment date (recurring records), the
 * refund date and the last day to cancel its contract, when still ahead in the record's zone. A fire time
 * already past still counts while its date is ahead, so a reminder missed while the service was down fires
 * once it runs again. Only Active records are reminded of anything.
 */
export function reminderTargets(
  record: RemindedRecord,
  definitions: ReminderDefinition[],
  now: Date,
): ReminderTarget[] {
  if (record.status !== Status.Active) return [];
  const today = todayIn(record.timezone, now);
  const nextPayment =
    record.recurring === 1
      ? nextOnOrAfter(record.schedule, today)
      : record.schedule.anchor >= today
        ? record.schedule.anchor
        : null;
  const ahead = (date: string | null) => (date !== null && date >= today ? date : null);
  const dates = { payment: nextPayment, refund: ahead(record.refundDate), contract_notice: ahead(record.noticeDate) };
  const targets: ReminderTarget[] = [];
  for (const definition of definitions) {
    if (!appliesTo(record, definition)) continue;
    for (const kind of remindedKinds(definition.alertCondition)) {
      const date = dates[kind];
      if (date === null) continue;
      targets.push({
        alertId: definition.id,
        kind,
        date,
        fireAt: instantOf(localFireDate(date, definition), definition.time, definition.timezone),
      });
    }
  }
  return targets;
}
