import type { StatementPart } from './db/statements';

/**
 * What writes to records, alerts and profiles need from reminders: recompute the reminders of the records
 * they changed, inside the writing transaction. The reminders feature implements it and the runtime wires it
 * in, so features that change records never import the feature that reads them.
 */
export interface ReminderScheduling {
  /** The reminders of records whose alerts or zone changed outside a change of the records themselves. */
  reschedule(subscriptionIds: number[]): Promise<void>;
  /** The timing of these alert definitions. */
  definitionsOf(alertIds: readonly number[]): Promise<ReminderDefinition[]>;
  /** New records' reminders as a part of the one statement that inserts them (their definitions read beforehand). */
  newRecordsPart(records: readonly ScheduledRecord[], definitions: ReminderDefinition[]): StatementPart;
  /** Changed records' reminders (none for a deleted record) as a part of the one statement that changes them. */
  changedRecordsPart(
    records: ReadonlyArray<{ record: ScheduledRecord; deleted: boolean }>,
    definitions: ReminderDefinition[],
  ): StatementPart;
  /** The live records whose reminders come from the alert definition (the alert is in use when any are). */
  recordsUsingAlert(alertId: number): Promise<number[]>;
}

/** An alert definition's timing: when, before which dates, its reminders fire. */
export interface ReminderDefinition {
  id: number;
  timePeriod: number;
  /** 1 days, 2 weeks, 3 months; null means days. */
  timeCycle: number | null;
  /** Local `HH:MM:SS` in `timezone`. */
  time: string;
  timezone: string;
  /** 1 payment and refund dates, 2 payment (due) date, 3 refund date. */
  alertCondition: number;
  /** The record type it is for: 1 Subscription, 2 Trial, 3 Lifetime; null for the system default (every type). */
  alertSubsType: number | null;
}

/** What a record's reminders are computed from, with every alert definition it uses. */
export interface ScheduledRecord {
  id: number;
  user_id: number;
  type: number;
  status: number;
  recurring: number;
  timezone: string;
  payment_date: string;
  billing_type: number;
  billing_cycle: number;
  billing_frequency: number;
  refund_days: number | null;
  /** The contract's end: no payment after it is reminded. */
  expiry_date: string | null;
  /** The contract's term and its notice: the last day to cancel is contract_expiry − contract_notice_days. */
  contract_expiry: string | null;
  contract_notice_days: number | null;
  alert_ids: number[];
}
