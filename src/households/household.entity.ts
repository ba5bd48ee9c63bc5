import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';

import { User } from '../auth/user.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { Subscription } from '../subscriptions/subscription.entity';

/** A user's household: the people their shared records are split between. One per owner. */
@Entity({ tableName: 'households' })
export class Household extends BaseEntity {
  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade', unique: true })
  owner!: number;

  @Property({ length: 100 })
  name!: string;
}

/**
 * A person in a household: the owner, a member with an account (joined with an invitation code sent to their
 * e-mail), one invited and not joined yet, or a name only. `owner` repeats the household's owner, whose data
 * version a change moves.
 */
@Entity({ tableName: 'household_members' })
@Index({
  name: 'household_members_household_user_unique',
  expression:
    'create unique index "household_members_household_user_unique" on "household_members" ("household_id", "user_id") where "user_id" is not null',
})
@Index({
  name: 'household_members_household_email_unique',
  expression:
    'create unique index "household_members_household_email_unique" on "household_members" ("household_id", lower("email")) where "email" is not null',
})
export class HouseholdMember extends BaseEntity {
  @ManyToOne(() => Household, { mapToPk: true, deleteRule: 'cascade' })
  household!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  owner!: number;

  @Property({ length: 200 })
  name!: string;

  @Property({ length: 320, nullable: true })
  email?: string | null;

  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'set null', index: true })
  user?: number | null;

  @Property({ default: false })
  canEdit!: boolean;

  /** sha256 of the invitation code, until it is used. */
  @Property({ type: 'text', nullable: true })
  invitationHash?: string | null;

  @Property({ type: UtcTimestampType, nullable: true })
  joinedAt?: string | null;
}

export const SPLIT_MODES = ['equal', 'amounts', 'percentages'] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

/** A record shared in its owner's household: who pays it, and how its cost is split (subscription_splits). */
@Entity({ tableName: 'subscription_shares' })
export class SubscriptionShare extends BaseEntity {
  @ManyToOne(() => Subscription, { mapToPk: true, deleteRule: 'cascade', unique: true })
  subscription!: number;

  @ManyToOne(() => Household, { mapToPk: true, deleteRule: 'cascade', index: true })
  household!: number;

  // Removing a member hands what they pay or share to the owner first (the service); the cascade serves a household's removal.
  @ManyToOne(() => HouseholdMember, { mapToPk: true, deleteRule: 'cascade' })
  payer!: number;

  @Enum({ items: () => SPLIT_MODES })
  splitMode!: SplitMode;
}

/** One member's part of a shared record: a weight (1 for equal shares, else the amount or percentage). */
@Entity({ tableName: 'subscription_splits' })
@Unique({ properties: ['subscription', 'member'] })
export class SubscriptionSplit extends BaseEntity {
  @ManyToOne(() => Subscription, { mapToPk: true, deleteRule: 'cascade' })
  subscription!: number;

  @ManyToOne(() => HouseholdMember, { mapToPk: true, deleteRule: 'cascade', index: true })
  member!: number;

  @Property({ type: 'decimal', precision: 14, scale: 2 })
  weight!: string;

  @Property({ type: 'smallint' })
  position!: number;
}
