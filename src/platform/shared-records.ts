/**
 * Who besides its owner may act on a record: the members of the household it is shared in (reading; editing
 * with edit rights). Features that answer records ask this; the households feature answers it.
 */
export interface SharedRecordAccess {
  /** The record's owner when `userId` may act on it as a member of its household (`edit`: with edit rights); else null. */
  ownerFor(userId: number, subscriptionId: number, need: 'read' | 'edit'): Promise<number | null>;
}
