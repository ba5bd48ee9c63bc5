import DataLoader from 'dataloader';
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';

import { AppError } from '../platform/errors';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import { asRecordView, SubscriptionRecordView } from '../subscriptions/subscription.types';
import type { SharingRow } from './household.repository';
import type { HouseholdService } from './household.service';
import {
  HouseholdMemberInput,
  HouseholdMemberUpdateInput,
  HouseholdMemberView,
  HouseholdView,
  SharingInput,
  SharingView,
  toHouseholdView,
  toMemberView,
  toSharingView,
} from './household.types';

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

  @FieldResolver(() => [SubscriptionRecordView], {
    description: 'The records shared in it (read-only unless you may edit).',
  })
  async subscriptions(
    @Root() household: HouseholdView,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView[]> {
    const caller = requireCaller(context);
    const { ownerId, ids } = await this.service.sharedRecords(caller, household.id);
    return (await this.records.ofOwner(caller, ownerId, ids)).map(asRecordView);
  }

  @Mutation(() => HouseholdView, { description: 'Makes your household (one per user), with you as its first member.' })
  async createHousehold(@Arg('name') name: string, @Ctx() context: GraphQLContext): Promise<HouseholdView> {
    await this.service.create(requireCaller(context), name);
    return this.own(context);
  }

  @Mutation(() => HouseholdView)
  async renameHousehold(@Arg('name') name: string, @Ctx() context: GraphQLContext): Promise<HouseholdView> {
    await this.service.rename(requireCaller(context), name);
    return this.own(context);
  }

  @Mutation(() => Boolean, {
    description: 'Removes your household: its members and shares go, your records stay, unshared.',
  })
  async deleteHousehold(@Ctx() context: GraphQLContext): Promise<boolean> {
    await this.service.remove(requireCaller(context));
    return true;
  }

  @Mutation(() => HouseholdMemberView, {
    description: 'Adds a member to your household: by name, or invited by e-mail (answers the invitation code once).',
  })
  async addHouseholdMember(
    @Arg('input', () => HouseholdMemberInput) input: HouseholdMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<HouseholdMemberView> {
    const caller = requireCaller(context);
    const member = await this.service.addMember(caller, input);
    return toMemberView(member, caller.userId, true, {
      code: member.invitation_code,
      emailed: member.invitation_emailed,
    });
  }

  @Mutation(() => HouseholdMemberView, {
    description: 'Invites a member not joined yet by e-mail, with a new invitation code.',
  })
  async inviteHouseholdMember(
    @Arg('memberId', () => Int) memberId: number,
    @Arg('email') email: string,
    @Ctx() context: GraphQLContext,
  ): Promise<HouseholdMemberView> {
    const caller = requireCaller(context);
    const member = await this.service.invite(caller, memberId, email);
    return toMemberView(member, caller.userId, true, {
      code: member.invitation_code,
      emailed: member.invitation_emailed,
    });
  }

  @Mutation(() => HouseholdMemberView)
  async updateHouseholdMember(
    @Arg('memberId', () => Int) memberId: number,
    @Arg('input', () => HouseholdMemberUpdateInput) input: HouseholdMemberUpdateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<HouseholdMemberView> {
    const caller = requireCaller(context);
    const member = await this.service.updateMember(caller, memberId, {
      name: input.name ?? undefined,
      canEdit: input.canEdit ?? undefined,
    });
    return toMemberView(member, caller.userId, true);
  }

  @Mutation(() => Boolean, {
    description:
      'Removes a member of your household: the records they pay and their shares become yours (merged with your own share), in one go.',
  })
  async removeHouseholdMember(
    @Arg('memberId', () => Int) memberId: number,
    @Ctx() context: GraphQLContext,
  ): Promise<boolean> {
    await this.service.removeMember(requireCaller(context), memberId);
    return true;
  }

  @Mutation(() => HouseholdView, {
    description: "Joins the household that invited your account's e-mail address with this code.",
  })
  async joinHousehold(@Arg('code') code: string, @Ctx() context: GraphQLContext): Promise<HouseholdView> {
    const caller = requireCaller(context);
    const householdId = await this.service.join(caller, code);
    const joined = (await this.service.households(caller)).find(({ household }) => household.id === householdId)!;
    return toHouseholdView(joined.household, joined.members, caller.userId);
  }

  @Mutation(() => Boolean, {
    description: 'Leaves a household you joined; you stay in it by name for the shares you hold.',
  })
  async leaveHousehold(
    @Arg('householdId', () => Int) householdId: number,
    @Ctx() context: GraphQLContext,
  ): Promise<boolean> {
    await this.service.leave(requireCaller(context), householdId);
    return true;
  }

  private async own(context: GraphQLContext): Promise<HouseholdView> {
    const caller = requireCaller(context);
    const [own] = await this.service.households(caller);
    if (!own || own.household.owner_id !== caller.userId) throw AppError.notFound('Household');
    return toHouseholdView(own.household, own.members, caller.userId);
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
    description: 'Its payer and split when it is shared in a household',
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

  @Mutation(() => SubscriptionRecordView, {
    description:
      'Shares a record in your household with a payer and a split, or changes them (the owner, or a member with edit rights).',
  })
  async shareSubscription(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => SharingInput) input: SharingInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    const caller = requireCaller(context);
    await this.households.share(caller, id, {
      payerId: input.payerMemberId,
      mode: input.mode,
      shares: input.shares.map((share) => ({ memberId: share.memberId, value: share.value })),
    });
    return asRecordView(await this.subscriptions.get(caller, id));
  }

  @Mutation(() => SubscriptionRecordView, { description: 'Stops sharing a record.' })
  async unshareSubscription(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    const caller = requireCaller(context);
    await this.households.unshare(caller, id);
    return asRecordView(await this.subscriptions.get(caller, id));
  }
}
