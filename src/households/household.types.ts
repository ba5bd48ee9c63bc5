import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';

import { toGlobalId } from '../platform/graphql/global-ids';
import { DecimalScalar, Money, money } from '../platform/graphql/money';
import { Node } from '../platform/graphql/node';
import { centsText, toCents } from '../platform/money';
import type { SplitMode } from './household.entity';
import type { MemberRow, MembershipRow, SharingRow } from './household.repository';
import { splitCents } from './split';

/** How a shared record's cost is split; the internal values are the stored split modes. */
export enum SplitModeValue {
  EQUAL = 'equal',
  AMOUNTS = 'amounts',
  PERCENTAGES = 'percentages',
}
registerEnumType(SplitModeValue, {
  name: 'SplitMode',
  description: "How a shared record's cost is split between the members who share it.",
  valuesConfig: {
    EQUAL: { description: 'In equal parts (cut to the cent, the parts adding up to the price).' },
    AMOUNTS: {
      description: 'By the amounts given, which add up to the price (a later price keeps their proportions).',
    },
    PERCENTAGES: { description: 'By the percentages given, which add up to 100.' },
  },
});

/** A person's standing in a household: what they may do with its shared records. */
export const HouseholdRole = { OWNER: 'OWNER', EDITOR: 'EDITOR', MEMBER: 'MEMBER' } as const;
export type HouseholdRole = (typeof HouseholdRole)[keyof typeof HouseholdRole];
registerEnumType(HouseholdRole, {
  name: 'HouseholdRole',
  description: 'What a person may do in a household.',
  valuesConfig: {
    OWNER: {
      description: 'Owns the household and the records shared in it: manages members, shares and edits.',
    },
    EDITOR: { description: 'A member with edit rights: reads and edits the shared records, changes their splits.' },
    MEMBER: { description: 'A member who reads the shared records only.' },
  },
});

/** Whether a member is a person with an account, one invited, or a name only. */
export const HouseholdMemberStatus = { JOINED: 'JOINED', INVITED: 'INVITED', NAME_ONLY: 'NAME_ONLY' } as const;
export type HouseholdMemberStatus = (typeof HouseholdMemberStatus)[keyof typeof HouseholdMemberStatus];
registerEnumType(HouseholdMemberStatus, {
  name: 'HouseholdMemberStatus',
  description: 'Whether an account belongs to a household member.',
  valuesConfig: {
    JOINED: { description: 'An account belongs to them: they own the household or joined it with an invitation.' },
    INVITED: { description: 'Invited by e-mail, not joined yet.' },
    NAME_ONLY: { description: 'A name only (never invited, or left): they hold shares but see nothing.' },
  },
});

// Object types with an id implement Node: `id` (the global id) and `legacyId` come from the row id.
@ObjectType('HouseholdMember', { implements: Node, description: 'A person in a household.' })
export class HouseholdMemberView {
  id!: number;
  @Field({ description: 'Their name in the household.' }) name!: string;
  @Field(() => String, {
    nullable: true,
    description: 'The e-mail address they were invited at; seen by the household owner only (null for others).',
  })
  email!: string | null;
  @Field(() => HouseholdRole, { description: 'What they may do.' }) role!: HouseholdRole;
  @Field(() => HouseholdMemberStatus, { description: 'Whether an account belongs to them.' })
  status!: HouseholdMemberStatus;
}

@ObjectType('Household', {
  implements: Node,
  description: "A user's household: the people their shared records are split between.",
})
export class HouseholdView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field({ description: "Its owner's name." }) ownerName!: string;
  @Field(() => HouseholdRole, { description: 'What you may do in it.' }) viewerRole!: HouseholdRole;
  @Field(() => HouseholdMemberView, { description: 'You, as a member of it.' }) viewerMember!: HouseholdMemberView;
  @Field(() => [HouseholdMemberView], { description: 'Its members, the owner first, then in the order added.' })
  members!: HouseholdMemberView[];
}

@ObjectType('SubscriptionShare', { description: "One member's part of a shared record." })
export class ShareView {
  @Field(() => ID, { description: 'The member.' }) memberId!: string;
  @Field({ description: "The member's name." }) memberName!: string;
  @Field(() => DecimalScalar, {
    nullable: true,
    description: 'The amount (AMOUNTS) or percentage (PERCENTAGES) given; null for EQUAL shares.',
  })
  value!: string | null;
  @Field(() => Money, {
    description: "The member's part of the current price, in its currency (the parts add up to the price).",
  })
  amount!: Money;
}

@ObjectType('SubscriptionSharing', { description: 'A record shared in a household: who pays it and how it is split.' })
export class SharingView {
  @Field(() => ID, { description: 'The household it is shared in.' }) householdId!: string;
  @Field(() => ID, { description: 'The member who pays it.' }) payerMemberId!: string;
  @Field({ description: "The payer's name." }) payerName!: string;
  @Field(() => SplitModeValue, { description: 'How its cost is split.' }) mode!: SplitModeValue;
  @Field(() => [ShareView], { description: 'The parts, in split order.' }) shares!: ShareView[];
}

// Base inputs: each mutation's input type is a named subclass (household.resolver.ts).
/** The fields of a new member. */
@InputType()
export class HouseholdMemberFields {
  @Field({ description: 'Their name in the household.' }) name!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Invites them: an invitation code to join with is answered (and e-mailed when SMTP_URL is set).',
  })
  email?: string | null;
  @Field({ defaultValue: false, description: 'Whether they may edit the shared records (EDITOR); MEMBER otherwise.' })
  canEdit!: boolean;
}

/** A member of your household, named in `memberId`. */
@InputType()
export abstract class MemberIdInput {
  @Field(() => ID, { description: 'The member.' }) memberId!: string;
}

/** A record of yours (or one you may edit), named in `id`. */
@InputType()
export abstract class RecordIdInput {
  @Field(() => ID, { description: 'The record.' }) id!: string;
}

@InputType('SubscriptionShareInput', { description: "One member's part of a record to share." })
export class ShareInputView {
  @Field(() => ID, { description: 'The member, of the household the record is shared in.' }) memberId!: string;
  @Field(() => DecimalScalar, {
    nullable: true,
    description:
      'AMOUNTS: the amount (they add up to the price); PERCENTAGES: the percentage (they add up to 100); EQUAL: none.',
  })
  value?: string | null;
}

export function roleOf(row: Pick<MemberRow, 'user_id' | 'can_edit'>, ownerId: number): HouseholdRole {
  if (row.user_id === ownerId) return HouseholdRole.OWNER;
  return row.can_edit ? HouseholdRole.EDITOR : HouseholdRole.MEMBER;
}

export function toMemberView(row: MemberRow, ownerId: number, callerIsOwner: boolean): HouseholdMemberView {
  return {
    id: row.id,
    name: row.name,
    email: callerIsOwner ? row.email : null,
    role: roleOf(row, ownerId),
    status:
      row.user_id !== null
        ? HouseholdMemberStatus.JOINED
        : row.invited
          ? HouseholdMemberStatus.INVITED
          : HouseholdMemberStatus.NAME_ONLY,
  };
}

export function toHouseholdView(household: MembershipRow, members: MemberRow[], callerId: number): HouseholdView {
  const isOwner = household.owner_id === callerId;
  const views = members.map((member) => toMemberView(member, household.owner_id, isOwner));
  return {
    id: household.id,
    name: household.name,
    ownerName: household.owner_name,
    viewerRole: isOwner ? HouseholdRole.OWNER : household.can_edit ? HouseholdRole.EDITOR : HouseholdRole.MEMBER,
    viewerMember: views.find((member) => member.id === household.member_id)!,
    members: views,
  };
}

export function toSharingView(row: SharingRow): SharingView {
  const parts = splitCents(
    toCents(row.price),
    row.splits.map((split) => split.weight),
  );
  return {
    householdId: toGlobalId('Household', row.household_id),
    payerMemberId: toGlobalId('HouseholdMember', row.payer_id),
    payerName: row.payer_name,
    mode: row.split_mode as SplitMode as SplitModeValue,
    shares: row.splits.map((split, index) => ({
      memberId: toGlobalId('HouseholdMember', split.member_id),
      memberName: split.name,
      value: row.split_mode === 'equal' ? null : split.weight,
      amount: money(centsText(parts[index]!), row.currency),
    })),
  };
}
