import { isTimeZone } from '../platform/dates';
import type { FieldErrors } from '../platform/errors';
import { hasLength } from '../platform/objects';

/** alert_id 0: the record has no alert (no reminders); 1: the system default alert. */
export const NO_ALERT = 0;
export const DEFAULT_ALERT = 1;

/**
 * alert_condition: which dates a reminder is counted back from (the original's codes, which clients check:
 * the last day to cancel a contract comes with 1 All, not with a code of its own).
 */
export const ALERT_CONDITIONS = { 1: 'All', 2: 'Before Due Date', 3: 'Before Refund Date' } as const;
/** alert_type: the channel; 1 to 3 are the original's, 4 (webhook) is ours, and 1 All includes it. */
export const ALERT_CHANNELS = { 1: 'All', 2: 'Email', 3: 'Browser', 4: 'Webhook' } as const;
/** alert_subs_type: the record type it is for (the record's `type`). */
export const ALERT_SUBJECTS = { 1: 'Subscription', 2: 'Trial', 3: 'Lifetime' } as const;
/** time_cycle: the unit of time_period (days when absent). */
export const TIME_CYCLES = { 1: 'days', 2: 'weeks', 3: 'months' } as const;

/** The date reminded of: the next payment, the refund window's end, or the last day to cancel a contract. */
export const REMINDER_KINDS = ['payment', 'refund', 'contract_notice'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
export type ReminderChannel = 'email' | 'browser' | 'webhook';

/** The dates an alert_condition reminds of. */
export function remindedKinds(alertCondition: number): ReminderKind[] {
  if (alertCondition === 2) return ['payment'];
  if (alertCondition === 3) return ['refund'];
  return [...REMINDER_KINDS];
}

/** alert_type 1: every channel, and every notification target of the user. */
export const ALL_CHANNELS = 1;

/** The channels an alert_type delivers through. */
export function channelsOf(alertType: number): ReminderChannel[] {
  if (alertType === 2) return ['email'];
  if (alertType === 3) return ['browser'];
  if (alertType === 4) return ['webhook'];
  return ['email', 'browser', 'webhook'];
}

/** A reminder definition: time_period × time_cycle before the date, at `time` local in `timezone`. */
export interface AlertInput {
  alertName: string;
  timePeriod: number;
  timeCycle?: number | null;
  /** `HH:MM` or `HH:MM:SS`. */
  time: string;
  alertCondition: number;
  alertType: number;
  timezone: string;
  alertSubsType: number;
  alertContact?: string | null;
}

export const MAX_TIME_PERIOD = 365;
/** HH:MM or HH:MM:SS, 24-hour. */
export const ALERT_TIME = /^([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d))?$/;

/** `HH:MM:SS` of an accepted time. */
export function normaliseTime(time: string): string {
  return time.length === 5 ? `${time}:00` : time;
}

export function validateAlertInput(input: Partial<AlertInput>): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const code = (field: string, value: number | null | undefined, codes: Record<number, string>) => {
    if (value !== undefined && value !== null && !(value in codes))
      fail(field, `The ${field} must be one of ${Object.keys(codes).join(', ')}.`);
  };
  if (input.alertName !== undefined && !hasLength(input.alertName, 1, 200)) {
    fail('alert_name', 'The alert_name must be from 1 to 200 characters.');
  }
  if (
    input.timePeriod !== undefined &&
    (!Number.isInteger(input.timePeriod) || input.timePeriod < 0 || input.timePeriod > MAX_TIME_PERIOD)
  ) {
    fail('time_period', `The time_period must be a whole number from 0 to ${MAX_TIME_PERIOD}.`);
  }
  code('time_cycle', input.timeCycle, TIME_CYCLES);
  if (input.time !== undefined && !ALERT_TIME.test(input.time)) fail('time', 'The time must be HH:MM (24-hour).');
  code('alert_condition', input.alertCondition, ALERT_CONDITIONS);
  code('alert_type', input.alertType, ALERT_CHANNELS);
  code('alert_subs_type', input.alertSubsType, ALERT_SUBJECTS);
  if (input.timezone !== undefined && !isTimeZone(input.timezone))
    fail('timezone', 'The timezone must be an IANA zone name.');
  if (
    input.alertContact !== undefined &&
    input.alertContact !== null &&
    (input.alertContact.length > 320 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.alertContact))
  ) {
    fail('alert_contact', 'The alert_contact must be an e-mail address.');
  }
  return errors;
}
