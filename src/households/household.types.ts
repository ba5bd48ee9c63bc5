import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { centsText, toCents } from '../platform/money';
import type { SplitMode } from './household.entity';
import type { MemberRow, MembershipRow, SharingRow } from './household.repository';
import { splitCents } from './split';

/** How a shared record's cost is split. */
export enum SplitModeValue {
  EQUAL = 'equal',
  AMOUNTS = 'amounts',
  PERCENTAGES = 'percentages',
}
registerEnumType(SplitModeValue, { name: 'SplitMode' });

@ObjectType('HouseholdMember')
export class HouseholdMemberView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'Seen by the household owner only' }) email!: string | null;
  @Field({ description: 'The household owner' }) isOwner!: boolean;
  @Field({ description: 'An account belongs to this member (they joined, or own the household)' }) joined!: boolean;
  @Field({ description: 'Invited by e-mail and not joined yet' }) invited!: boolean;
  @Field({ description: 'May edit the shared records (the owner always may)' }) canEdit!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'The invitation code, answered only when the member is added or invited',
  })
  invitationCode!: string | null;
  @Field({ description: 'Whether the invitation code was sent by e-mail (SMTP_URL)' }) invitationEmailed!: boolean;
}

@ObjectType('Household')
export class HouseholdView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() ownerName!: string;
  @Field({ description: 'You own it' }) isOwner!: boolean;
  @Field({ description: 'You may edit its shared records' }) canEdit!: boolean;
  @Field(() => Int, { description: 'Your member id in it' }) memberId!: number;
  @Field(() => [HouseholdMemberView]) members!: HouseholdMemberView[];
}

@ObjectType('SubscriptionShare', { description: "One member's part of a shared record." })
export class ShareView {
  @Field(() => Int) memberId!: number;
  @Field() memberName!: string;
  @Field(() => String, { nullable: true, description: 'The amount or percentage given (null: equal shares)' }) value!:
    string | null;
  @Field({ description: "The member's part of the current price, decimal string (the parts add up to the price)" })
  amount!: string;
}

@ObjectType('SubscriptionSharing', { description: 'A record shared in a household: who pays it and how it is split.' })
export class SharingView {
  @Field(() => Int) householdId!: number;
  @Field(() => Int) payerMemberId!: number;
  @Field() payerName!: string;
  @Field(() => SplitModeValue) mode!: SplitModeValue;
  @Field(() => [ShareView]) shares!: ShareView[];
}

@InputType()
export class HouseholdMemberInput {
  @Field() name!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Invites them: an invitation code to join with is answered (and e-mailed when SMTP_URL is set)',
  })
  email?: string | null;
  @Field({ defaultValue: false, description: 'May edit the shared records' }) canEdit!: boolean;
}

@InputType()
export class HouseholdMemberUpdateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => Boolean, { nullable: true }) canEdit?: boolean | null;
}

@InputType()
export class ShareInputView {
  @Field(() => Int) memberId!: number;
  @Field(() => String, {
    nullable: true,
    description:
      'AMOUNTS: the amount (they add up to the price); PERCENTAGES: the percentage (they add up to 100); EQUAL: none',
  })
  value?: string | null;
}

@InputType()
export class SharingInput {
  @Field(() => Int) payerMemberId!: number;
  @Field(() => SplitModeValue, { defaultValue: SplitModeValue.EQUAL }) mode!: SplitModeValue;
  @Field(() => [ShareInputView]) shares!: ShareInputView[];
}

export function toMemberView(
  row: MemberRow,
  ownerId: number,
  callerIsOwner: boolean,
  invitation?: { code: string | null; emailed: boolean },
): HouseholdMemberView {
  return {
    id: row.id,
    name: row.name,
    email: callerIsOwner ? row.email : null,
    isOwner: row.user_id === ownerId,
    joined: row.user_id !== null,
    invited: row.invited,
    canEdit: row.can_edit || row.user_id === ownerId,
    invitationCode: invitation?.code ?? null,
    invitationEmailed: invitation?.emailed ?? false,
  };
}

export function toHouseholdView(household: MembershipRow, members: MemberRow[], callerId: number): HouseholdView {
  const isOwner = household.owner_id === callerId;
  return {
    id: household.id,
    name: household.name,
    ownerName: household.owner_name,
    isOwner,
    canEdit: household.can_edit,
    memberId: household.member_id,
    members: members.map((member) => toMemberView(member, household.owner_id, isOwner)),
  };
}

export function toSharingView(row: SharingRow): SharingView {
  const parts = splitCents(
    toCents(row.price),
    row.splits.map((split) => split.weight),
  );
  return {
    householdId: row.household_id,
    payerMemberId: row.payer_id,
    payerName: row.payer_name,
    mode: row.split_mode as SplitMode as SplitModeValue,
    shares: row.splits.map((split, index) => ({
      memberId: split.member_id,
      memberName: split.name,
      value: row.split_mode === 'equal' ? null : split.weight,
      amount: centsText(parts[index]),
    })),
  };
}
