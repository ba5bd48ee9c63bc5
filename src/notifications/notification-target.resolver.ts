import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { toIsoMicros } from '../platform/wire-formats';
import type { DeliveryLogService } from '../webhooks/delivery-log.service';
import { DeliveryView, toDeliveryView } from '../webhooks/webhooks.resolver';
import type { NotificationTarget } from './notification-target.entity';
import type { NotificationTargetService } from './notification-target.service';

@InputType()
class NotificationTargetInput {
  @Field() name!: string;
  @Field({
    description:
      'ntfy(s)://, gotify(s)://, tgram://, discord://, pover://, slack://, matrix(s)://, mailto:// or json(s)://: see the README',
  })
  url!: string;
}

@InputType()
class NotificationTargetChange {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true, description: 'A URL of the same scheme' }) url?: string | null;
}

@ObjectType('NotificationTarget')
class NotificationTargetView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() scheme!: string;
  @Field({ description: 'The URL with its tokens and passwords shown as ****' }) url!: string;
  @Field(() => DateTimeResolver) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true }) updatedAt!: string | null;
}

@ObjectType('NewNotificationTarget')
class NewNotificationTargetView extends NotificationTargetView {
  @Field(() => String, {
    nullable: true,
    description: "A json(s):// target's signing secret (Standard Webhooks), shown this once; null for other schemes",
  })
  secret!: string | null;
}

const toView = (target: NotificationTarget): NotificationTargetView => ({
  id: target.id,
  name: target.name,
  scheme: target.scheme,
  url: target.maskedUrl,
  createdAt: toIsoMicros(target.createdAt)!,
  updatedAt: toIsoMicros(target.updatedAt ?? null),
});

@Resolver()
export class NotificationTargetResolver {
  constructor(
    private readonly targets: NotificationTargetService,
    private readonly log: DeliveryLogService,
  ) {}

  @Query(() => [NotificationTargetView], { description: 'Where your reminders can go besides e-mail and webhooks.' })
  async notificationTargets(@Ctx() context: GraphQLContext): Promise<NotificationTargetView[]> {
    return (await this.targets.list(requireCaller(context))).map(toView);
  }

  @Query(() => [Int], {
    description: 'The ids of your targets an alert definition sends its reminders to (alert_type 1 sends to all).',
  })
  async alertTargets(@Arg('alertId', () => Int) alertId: number, @Ctx() context: GraphQLContext): Promise<number[]> {
    return this.targets.ofAlert(requireCaller(context), alertId);
  }

  @Mutation(() => NewNotificationTargetView)
  async createNotificationTarget(
    @Arg('input', () => NotificationTargetInput) input: NotificationTargetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<NewNotificationTargetView> {
    const { target, secret } = await this.targets.create(requireCaller(context), input);
    return { ...toView(target), secret };
  }

  @Mutation(() => NotificationTargetView)
  async updateNotificationTarget(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => NotificationTargetChange) input: NotificationTargetChange,
    @Ctx() context: GraphQLContext,
  ): Promise<NotificationTargetView> {
    return toView(
      await this.targets.update(requireCaller(context), id, {
        name: input.name ?? undefined,
        url: input.url ?? undefined,
      }),
    );
  }

  @Mutation(() => Boolean)
  async deleteNotificationTarget(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<boolean> {
    await this.targets.remove(requireCaller(context), id);
    return true;
  }

  @Mutation(() => [Int], {
    description: 'Sets the targets an alert definition (yours, or the system default) sends to; answers their ids.',
  })
  async setAlertTargets(
    @Arg('alertId', () => Int) alertId: number,
    @Arg('targetIds', () => [Int]) targetIds: number[],
    @Ctx() context: GraphQLContext,
  ): Promise<number[]> {
    return this.targets.setAlertTargets(requireCaller(context), alertId, targetIds);
  }

  @Mutation(() => DeliveryView, {
    description: 'Sends a sample reminder to the target now; answers its delivery after the first attempt.',
  })
  async sendTestNotification(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<DeliveryView> {
    const row = await this.targets.sendTest(requireCaller(context), id);
    return toDeliveryView(row, await this.log.attempts([row.id]));
  }
}
