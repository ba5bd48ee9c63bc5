import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { Subscription } from '../subscriptions/subscription.entity';

export const ENTRY_STATUSES = ['pending', 'paid', 'skipped'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

/**
 * One payment a record owes on a due date (the amount its price history gives that day), and what became of
 * it: paid (how much, on which day) or skipped. Pending entries not yet due follow the record's changes.
 */
@Entity({ tableName: 'payment_entries' })
@Unique({ properties: ['subscription', 'dueDate'] })
@Index({ properties: ['user', 'dueDate'] })
export class PaymentEntry extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @ManyToOne(() => Subscription, { mapToPk: true, deleteRule: 'cascade' })
  subscription!: number;

  @Property({ type: 'date' })
  dueDate!: string;

  @Property({ type: 'decimal', precision: 14, scale: 2 })
  expectedAmount!: string;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Enum({ items: () => ENTRY_STATUSES, default: 'pending' })
  status!: EntryStatus;

  @Property({ type: 'decimal', precision: 14, scale: 2, nullable: true })
  paidAmount?: string | null;

  @Property({ type: 'date', nullable: true })
  paidOn?: string | null;

  @Property({ type: 'text', nullable: true })
  note?: string | null;
}
