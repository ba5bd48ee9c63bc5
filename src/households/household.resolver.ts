import DataLoader from 'dataloader';
import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Mutation, Query, Resolver, Root } from 'type-graphql';

import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import { asRecordView, SubscriptionConnection, SubscriptionRecordView } from '../subscriptions/subscription.types';
import type { MemberRow, SharingRow } from './household.repository';
import type { HouseholdService, InvitedMember } from './household.service';
import {
  HouseholdMemberFields,
  HouseholdMemberView,
  HouseholdView,
  MemberIdInput,
  RecordIdInput,
  ShareInputView,
  SharingView,
  SplitModeValue,
  toHouseholdView,
  toMemberView,
  toSharingView,
} from './household.types';

/** The shared records' page sizes in a household: 100 unless asked, at most 500. */
const SHARED_RECORD_PAGES = { defaultSize: 100, maxSize: 500 };

@InputType('CreateHouseholdInput', { description: 'Your new household.' })
class CreateHouseholdInput {
  @Field({ description: 'Its name, 1 to 100 characters.' }) name!: string;
}

@InputType('RenameHouseholdInput', { description: 'A new name for your household.' })
class RenameHouseholdInput {
  @Field(() => ID, { description: 'Your household.' }) id!: string;
  @Field({ description: 'Its new name, 1 to 100 characters.' }) name!: string;
}

@InputType('DeleteHouseholdInput', { description: 'The household to delete: yours.' })
class DeleteHouseholdInput {
  @Field(() => ID, { description: 'Your household.' }) id!: string;
}

@InputType('AddHouseholdMemberInput', { description: 'A new member of your household.' })
class AddHouseholdMemberInput extends HouseholdMemberFields {}

@InputType('InviteHouseholdMemberInput', { description: 'A member not joined yet, to invite by e-mail.' })
class InviteHouseholdMemberInput extends MemberIdInput {
  @Field({ description: 'The address to send the invitation to (their account must have it to join).' })
  email!: string;
}

@InputType('UpdateHouseholdMemberInput', { description: 'Changes to a member of your household: those given are set.' })
class UpdateHouseholdMemberInput extends MemberIdInput {
  @Field(() => String, { nullable: true, description: 'A new name.' }) name?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether they may edit the shared records.' })
  canEdit?: boolean | null;
}

@InputType('RemoveHouseholdMemberInput', { description: 'The member of your household to remove.' })
class RemoveHouseholdMemberInput extends MemberIdInput {}

@InputType('JoinHouseholdInput', { description: 'An invitation to join.' })
class JoinHouseholdInput {
  @Field({ description: "The invitation code sent to your account's e-mail address." }) code!: string;
}

@InputType('LeaveHouseholdInput', { description: 'The household you joined and are leaving.' })
class LeaveHouseholdInput {
  @Field(() => ID, { description: 'The household.' }) householdId!: string;
}

@InputType('ShareSubscriptionInput', { description: 'A record to share in your household, with a payer and a split.' })
class ShareSubscriptionInput extends RecordIdInput {
  @Field(() => ID, { description: 'The member who pays it.' }) payerMemberId!: string;
  @Field(() => SplitModeValue, { defaultValue: SplitModeValue.EQUAL, description: 'How its cost is split.' })
  mode!: SplitModeValue;
  @Field(() => [ShareInputView], { description: 'The parts, 1 to 50, one per member.' }) shares!: ShareInputView[];
}

@InputType('UnshareSubscriptionInput', { description: 'The record to stop sharing.' })
class UnshareSubscriptionInput extends RecordIdInput {}

const householdPayload = (name: string, description: string) =>
  MutationPayload(name, 'household', () => HouseholdView, description);
const memberPayload = (name: string, description: string) =>
  MutationPayload(name, 'householdMember', () => HouseholdMemberView, description);
const recordPayload = (name: string, description: string) =>
  MutationPayload(name, 'subscription', () => SubscriptionRecordView, description);

const CreateHouseholdPayload = householdPayload('CreateHouseholdPayload', 'Your new household.');
const RenameHouseholdPayload = householdPayload('RenameHouseholdPayload', 'Your renamed household.');
const JoinHouseholdPayload = householdPayload('JoinHouseholdPayload', 'The household you joined.');
const DeleteHouseholdPayload = MutationPayload(
  'DeleteHouseholdPayload',
  'deletedHouseholdId',
  () => ID,
  'The deleted household.',
);
const LeaveHouseholdPayload = MutationPayload(
  'LeaveHouseholdPayload',
  'leftHouseholdId',
  () => ID,
  'The household you left.',
);
const AddHouseholdMemberPayload = memberPayload('AddHouseholdMemberPayload', 'The new member, and their invitation.');
const InviteHouseholdMemberPayload = memberPayload('InviteHouseholdMemberPayload', 'The member and their invitation.');
for (const payload of [AddHouseholdMemberPayload, InviteHouseholdMemberPayload]) {
  Field(() => String, {
    nullable: true,
    description:
      'The invitation code to join with, shown this once (only its hash is kept); null when no one was invited or the input was refused.',
  })(payload.prototype, 'invitationCode');
  Field(() => Boolean, {
    nullable: true,
    description: 'Whether the invitation code was sent by e-mail (SMTP_URL); null when the input was refused.',
  })(payload.prototype, 'invitationEmailed');
}
const UpdateHouseholdMemberPayload = memberPayload('UpdateHouseholdMemberPayload', 'The changed member.');
const RemoveHouseholdMemberPayload = MutationPayload(
  'RemoveHouseholdMemberPayload',
  'deletedHouseholdMemberId',
  () => ID,
  'The removed member.',
);
const ShareSubscriptionPayload = recordPayload('ShareSubscriptionPayload', 'The shared record, with its sharing.');
const UnshareSubscriptionPayload = recordPayload('UnshareSubscriptionPayload', 'The record, no longer shared.');

/** A member just added or invited, and their invitation (the code shown this once). */
function invitedPayload(member: InvitedMember, caller: Caller): object {
  return {
    householdMember: toMemberView(member, caller.userId, true),
    invitationCode: member.invitation_code,
    invitationEmailed: member.invitation_emailed,
  };
}

@Resolver(() => HouseholdView)
export class HouseholdResolver {
  constructor(
    private readonly service: HouseholdService,
    private readonly records: SubscriptionService,
  ) {}

  @Query(() => [HouseholdView], { description: 'The households you own or joined, yours first.' })
  async households(@Ctx() context: GraphQLContext): Promise<HouseholdView[]> {
    const caller = requireCaller(context);
    return (await this.service.households(caller)).map(({ household, members }) =>
      toHouseholdView(household, members, caller.userId),
    );
  }

  @FieldResolver(() => SubscriptionConnection, {
    description:
      'The records shared in it, oldest first (read-only unless you may edit): 100 a page unless asked, at most 500.',
  })
  async subscriptions(
    @Root() household: HouseholdView,
    @Args() page: PageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionConnection> {
    const caller = requireCaller(context);
    const { ownerId, ids } = await this.service.sharedRecords(caller, household.id);
    return readPage(
      page,
      SHARED_RECORD_PAGES,
      async (offset, limit) => {
        const pageIds = ids.slice(offset, offset + limit);
        const found = pageIds.length > 0 ? await this.records.ofOwner(caller, ownerId, pageIds) : [];
        const byId = new Map(found.map((record) => [record.id, record]));
        return { rows: pageIds.flatMap((id) => byId.get(id) ?? []), total: ids.length };
      },
      asRecordView,
    );
  }

  @Mutation(() => CreateHouseholdPayload, {
    description: 'Makes your household (one per user), with you as its first member.',
  })
  async createHousehold(
    @Arg('input', () => CreateHouseholdInput, { description: 'Your new household.' }) input: CreateHouseholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    await this.service.create(caller, input.name);
    return { household: await this.own(caller) };
  }

  @Mutation(() => RenameHouseholdPayload, { description: 'Renames your household.' })
  async renameHousehold(
    @Arg('input', () => RenameHouseholdInput, { description: 'Your household and its new name.' })
    input: RenameHouseholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    await this.ownId(caller, input.id);
    await this.service.rename(caller, input.name);
    return { household: await this.own(caller) };
  }

  @Mutation(() => DeleteHouseholdPayload, {
    description: 'Removes your household: its members and shares go, your records stay, unshared.',
  })
  async deleteHousehold(
    @Arg('input', () => DeleteHouseholdInput, { description: 'Your household.' }) input: DeleteHouseholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    await this.ownId(caller, input.id);
    await this.service.remove(caller);
    return { deletedHouseholdId: input.id };
  }

  @Mutation(() => AddHouseholdMemberPayload, {
    description: 'Adds a member to your household: by name, or invited by e-mail (answers the invitation code once).',
  })
  async addHouseholdMember(
    @Arg('input', () => AddHouseholdMemberInput, { description: 'The new member.' }) input: AddHouseholdMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    return invitedPayload(await this.service.addMember(caller, input), caller);
  }

  @Mutation(() => InviteHouseholdMemberPayload, {
    description:
      'Invites a member not joined yet by e-mail, with a new invitation code (the previous one no longer works).',
  })
  async inviteHouseholdMember(
    @Arg('input', () => InviteHouseholdMemberInput, { description: 'The member and the address.' })
    input: InviteHouseholdMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const memberId = idOf(input.memberId, 'HouseholdMember', 'memberId');
    return invitedPayload(await this.service.invite(caller, memberId, input.email), caller);
  }

  @Mutation(() => UpdateHouseholdMemberPayload, {
    description: 'Renames a member of your household or changes their edit rights (their role: EDITOR or MEMBER).',
  })
  async updateHouseholdMember(
    @Arg('input', () => UpdateHouseholdMemberInput, { description: 'The member and the changes.' })
    input: UpdateHouseholdMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const member = await this.service.updateMember(caller, idOf(input.memberId, 'HouseholdMember', 'memberId'), {
      name: input.name ?? undefined,
      canEdit: input.canEdit ?? undefined,
    });
    return { householdMember: toMemberView(member, caller.userId, true) };
  }

  @Mutation(() => RemoveHouseholdMemberPayload, {
    description:
      'Removes a member of your household: the records they pay and their shares become yours (merged with your own share), in one go.',
  })
  async removeHouseholdMember(
    @Arg('input', () => RemoveHouseholdMemberInput, { description: 'The member.' }) input: RemoveHouseholdMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.service.removeMember(requireCaller(context), idOf(input.memberId, 'HouseholdMember', 'memberId'));
    return { deletedHouseholdMemberId: input.memberId };
  }

  @Mutation(() => JoinHouseholdPayload, {
    description: "Joins the household that invited your account's e-mail address with this code.",
  })
  async joinHousehold(
    @Arg('input', () => JoinHouseholdInput, { description: 'The invitation code.' }) input: JoinHouseholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const householdId = await this.service.join(caller, input.code);
    const joined = (await this.service.households(caller)).find(({ household }) => household.id === householdId)!;
    return { household: toHouseholdView(joined.household, joined.members, caller.userId) };
  }

  @Mutation(() => LeaveHouseholdPayload, {
    description: 'Leaves a household you joined; you stay in it by name for the shares you hold.',
  })
  async leaveHousehold(
    @Arg('input', () => LeaveHouseholdInput, { description: 'The household.' }) input: LeaveHouseholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.service.leave(requireCaller(context), idOf(input.householdId, 'Household', 'householdId'));
    return { leftHouseholdId: input.householdId };
  }

  /** The caller's own household, as they see it. */
  private async own(caller: Caller): Promise<HouseholdView> {
    const [own] = await this.service.households(caller);
    if (!own || own.household.owner_id !== caller.userId) throw AppError.notFound('Household');
    return toHouseholdView(own.household, own.members, caller.userId);
  }

  /** Checks that a global id names the caller's own household (NOT_FOUND otherwise). */
  private async ownId(caller: Caller, globalId: string): Promise<void> {
    const id = idOf(globalId, 'Household');
    const own = await this.own(caller).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    });
    if (own?.id !== id) {
      const message = `No household of yours has the id ${JSON.stringify(globalId)}.`;
      throw new AppError('NOT_FOUND', message, { id: [message] });
    }
  }
}

/** A record's sharing in a household: set and read beside the record's other fields. */
@Resolver(() => SubscriptionRecordView)
export class SubscriptionSharingResolver {
  /** One batch per request: its cache must not outlive the caller's view of the data. */
  private readonly loaders = new WeakMap<GraphQLContext, DataLoader<number, SharingRow | null>>();

  constructor(
    private readonly households: HouseholdService,
    private readonly subscriptions: SubscriptionService,
  ) {}

  @FieldResolver(() => SharingView, {
    nullable: true,
    description: 'Its payer and split when it is shared in a household; null when it is not.',
  })
  async sharing(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<SharingView | null> {
    let loader = this.loaders.get(context);
    if (!loader) {
      loader = new DataLoader<number, SharingRow | null>(async (ids) => {
        const rows = new Map((await this.households.sharingOf(ids)).map((row) => [row.subscription_id, row]));
        return ids.map((id) => rows.get(id) ?? null);
      });
      this.loaders.set(context, loader);
    }
    const row = await loader.load(record.id);
    return row ? toSharingView(row) : null;
  }

  @Mutation(() => ShareSubscriptionPayload, {
    description:
      'Shares a record in your household with a payer and a split, or changes them (the owner, or a member with edit rights).',
  })
  async shareSubscription(
    @Arg('input', () => ShareSubscriptionInput, { description: 'The record, its payer and its split.' })
    input: ShareSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const id = idOf(input.id, 'SubscriptionRecord');
    await this.households.share(caller, id, {
      payerId: idOf(input.payerMemberId, 'HouseholdMember', 'payerMemberId'),
      mode: input.mode,
      shares: input.shares.map((share, index) => ({
        memberId: idOf(share.memberId, 'HouseholdMember', `shares.${index}.memberId`),
        value: share.value,
      })),
    });
    return { subscription: asRecordView(await this.subscriptions.get(caller, id)) };
  }

  @Mutation(() => UnshareSubscriptionPayload, { description: 'Stops sharing a record.' })
  async unshareSubscription(
    @Arg('input', () => UnshareSubscriptionInput, { description: 'The record.' }) input: UnshareSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const id = idOf(input.id, 'SubscriptionRecord');
    await this.households.unshare(caller, id);
    return { subscription: asRecordView(await this.subscriptions.get(caller, id)) };
  }
}

/** `node(id:)` for households and their members, as the caller sees them (households they belong to). */
export function householdNodeLookups(service: HouseholdService): Record<string, NodeLookup> {
  return {
    Household: async (caller, id) => {
      const membership = await service.membership(caller, id);
      return toHouseholdView(membership, await service.members(caller, id), caller.userId);
    },
    HouseholdMember: async (caller, id) => {
      for (const { household, members } of await service.households(caller)) {
        const member = members.find((row: MemberRow) => row.id === id);
        if (member) return toMemberView(member, household.owner_id, household.owner_id === caller.userId);
      }
      return null;
    },
  };
}
