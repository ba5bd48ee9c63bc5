import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What writes to records, alerts and profiles need from reminders: recompute the reminders of the records
 * they changed, inside the writing transaction. The reminders feature implements it and the runtime wires it
 * in, so features that change records never import the feature that reads them.
 */
export interface ReminderScheduling {
  reschedule(em: EntityManager, subscriptionIds: number[]): Promise<void>;
  /** The live records whose reminders come from the alert definition (the alert is in use when any are). */
  recordsUsingAlert(em: EntityManager, alertId: number): Promise<number[]>;
}
