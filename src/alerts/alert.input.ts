import type { FieldErrors } from '../errors';
import { isTimeZone } from '../subscriptions/payment-dates';

/** alert_condition: which date a reminder is counted back from. */
export const ALERT_CONDITIONS = { 1: 'payment date', 2: 'refund date', 3: 'both' } as const;
/** alert_type: the channel. */
export const ALERT_CHANNELS = { 1: 'e-mail', 2: 'browser extension', 3: 'webhook', 4: 'every channel' } as const;
/** alert_subs_type: the kinds of record it applies to. */
export const ALERT_SUBJECTS = { 1: 'subscriptions', 2: 'lifetime', 3: 'all' } as const;
/** time_cycle: the unit of time_period (days when absent). */
export const TIME_CYCLES = { 1: 'days', 2: 'weeks', 3: 'months' } as const;

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
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:([0-5]\d))?$/;

/** `HH:MM:SS` of an accepted time. */
export function normaliseTime(time: string): string {
  return time.length === 5 ? `${time}:00` : time;
}

export function validateAlertInput(input: Partial<AlertInput>): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const code = (field: string, value: number | null | undefined, codes: Record<number, string>) => {
    if (value !== undefined && value !== null && !(value in codes)) fail(field, `The ${field} must be one of ${Object.keys(codes).join(', ')}.`);
  };
  if (input.alertName !== undefined && (input.alertName.trim().length === 0 || input.alertName.length > 200)) {
    fail('alert_name', 'The alert_name must be from 1 to 200 characters.');
  }
  if (input.timePeriod !== undefined && (!Number.isInteger(input.timePeriod) || input.timePeriod < 0 || input.timePeriod > MAX_TIME_PERIOD)) {
    fail('time_period', `The time_period must be a whole number from 0 to ${MAX_TIME_PERIOD}.`);
  }
  code('time_cycle', input.timeCycle, TIME_CYCLES);
  if (input.time !== undefined && !TIME.test(input.time)) fail('time', 'The time must be HH:MM (24-hour).');
  code('alert_condition', input.alertCondition, ALERT_CONDITIONS);
  code('alert_type', input.alertType, ALERT_CHANNELS);
  code('alert_subs_type', input.alertSubsType, ALERT_SUBJECTS);
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) fail('timezone', 'The timezone must be an IANA zone name.');
  if (input.alertContact !== undefined && input.alertContact !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.alertContact)) {
    fail('alert_contact', 'The alert_contact must be an e-mail address.');
  }
  return errors;
}
