import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Mutation, Query, Resolver, Root } from 'type-graphql';

import { AlertIdInput } from '../alerts/alert.types';
import type { Caller } from '../platform/caller';
import { type Page, PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, idsOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import type { DeliveryLogService } from '../webhooks/delivery-log.service';
import { DeliveryView, toDeliveryView } from '../webhooks/webhooks.resolver';
import type { NotificationTargetService } from './notification-target.service';
import {
  NotificationDeliveryConnection,
  NotificationTargetChangesInput,
  NotificationTargetFieldsInput,
  NotificationTargetIdInput,
  NotificationTargetView,
  toNotificationTargetView,
} from './notification-target.types';

@InputType('CreateNotificationTargetInput', { description: 'A new notification target.' })
class CreateNotificationTargetInput extends NotificationTargetFieldsInput {}

@InputType('UpdateNotificationTargetInput', { description: 'Changes to one of your notification targets.' })
class UpdateNotificationTargetInput extends NotificationTargetChangesInput {
  @Field(() => ID, { description: 'The target to change.' }) id!: string;
}

@InputType('DeleteNotificationTargetInput', { description: 'The notification target to delete.' })
class DeleteNotificationTargetInput extends NotificationTargetIdInput {}

@InputType('SendTestNotificationInput', { description: 'The notification target to try.' })
class SendTestNotificationInput extends NotificationTargetIdInput {}

@InputType('SetAlertTargetsInput', { description: 'An alert and the targets it is to send to.' })
class SetAlertTargetsInput extends AlertIdInput {
  @Field(() => [ID], {
    description:
      'The global ids of your notification targets, or none (an alert with channel ALL sends to every target anyway).',
  })
  targetIds!: string[];
}

const CreateNotificationTargetPayload = MutationPayload(
  'CreateNotificationTargetPayload',
  'notificationTarget',
  () => NotificationTargetView,
  'The new notification target.',
  {
    secret: {
      type: () => String,
      description: "A json(s):// target's signing secret (Standard Webhooks), shown this once; null for other schemes.",
    },
  },
);
const UpdateNotificationTargetPayload = MutationPayload(
  'UpdateNotificationTargetPayload',
  'notificationTarget',
  () => NotificationTargetView,
  'The changed notification target.',
);
const DeleteNotificationTargetPayload = MutationPayload(
  'DeleteNotificationTargetPayload',
  'deletedNotificationTargetId',
  () => ID,
  'The deleted notification target.',
);
const SendTestNotificationPayload = MutationPayload(
  'SendTestNotificationPayload',
  'delivery',
  () => DeliveryView,
  "The test message's delivery, after its first attempt.",
);
const SetAlertTargetsPayload = MutationPayload(
  'SetAlertTargetsPayload',
  'notificationTargets',
  () => [NotificationTargetView],
  'The targets the alert now sends to.',
);

/** Pages of a target's deliveries, as webhookDeliveries pages them. */
const DELIVERY_PAGES = { defaultSize: 50, maxSize: 200 };

/** `node(id:)` for a notification target: the caller's own. */
export function notificationTargetNodeLookup(service: NotificationTargetService): NodeLookup {
  return async (caller, id) => {
    const target = (await service.list(caller)).find((candidate) => candidate.id === id);
    return target ? toNotificationTargetView(target) : null;
  };
}

@Resolver(() => NotificationTargetView)
export class NotificationTargetResolver {
  constructor(
    private readonly targets: NotificationTargetService,
    private readonly log: DeliveryLogService,
  ) {}

  @Query(() => [NotificationTargetView], {
    description: 'Where your reminders can go besides e-mail and webhooks, oldest first (at most 50).',
  })
  async notificationTargets(@Ctx() context: GraphQLContext): Promise<NotificationTargetView[]> {
    return (await this.targets.list(requireCaller(context))).map(toNotificationTargetView);
  }

  @Query(() => [NotificationTargetView], {
    description:
      'Your targets an alert (yours, or the system default) sends its reminders to; with channel ALL it sends to every target.',
  })
  async alertTargets(
    @Arg('alertId', () => ID, { description: 'The global id of the alert.' }) alertId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<NotificationTargetView[]> {
    const caller = requireCaller(context);
    return this.viewsOf(caller, await this.targets.ofAlert(caller, idOf(alertId, 'Alert', 'alertId')));
  }

  @FieldResolver(() => NotificationDeliveryConnection, {
    description: `Its deliveries (test messages and reminders), newest first, each with its attempts (${DELIVERY_PAGES.defaultSize} a page unless first or last says otherwise, at most ${DELIVERY_PAGES.maxSize}).`,
  })
  async deliveries(
    @Root() target: NotificationTargetView,
    @Args() page: PageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<Page<DeliveryView>> {
    const caller = requireCaller(context);
    let attempts: Awaited<ReturnType<DeliveryLogService['attempts']>> = [];
    return readPage(
      page,
      DELIVERY_PAGES,
      async (offset, limit) => {
        const read = await this.targets.deliveryPage(caller, target.id, offset, limit);
        attempts = await this.log.attempts(read.rows.map((row) => row.id));
        return read;
      },
      (row) => toDeliveryView(row, attempts),
    );
  }

  @Mutation(() => CreateNotificationTargetPayload, {
    description: "Makes a notification target; a json(s):// target's signing secret is answered this once.",
  })
  async createNotificationTarget(
    @Arg('input', () => CreateNotificationTargetInput, { description: 'The new target.' })
    input: CreateNotificationTargetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { target, secret } = await this.targets.create(requireCaller(context), {
      name: input.name,
      url: input.url,
    });
    return { notificationTarget: toNotificationTargetView(target), secret };
  }

  @Mutation(() => UpdateNotificationTargetPayload, {
    description: 'Renames one of your targets or changes its URL (to one of the same scheme).',
  })
  async updateNotificationTarget(
    @Arg('input', () => UpdateNotificationTargetInput, { description: 'The target and its changes.' })
    input: UpdateNotificationTargetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const target = await this.targets.update(requireCaller(context), idOf(input.id, 'NotificationTarget'), {
      name: input.name ?? undefined,
      url: input.url ?? undefined,
    });
    return { notificationTarget: toNotificationTargetView(target) };
  }

  @Mutation(() => DeleteNotificationTargetPayload, { description: 'Deletes one of your notification targets.' })
  async deleteNotificationTarget(
    @Arg('input', () => DeleteNotificationTargetInput, { description: 'The target to delete.' })
    input: DeleteNotificationTargetInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.targets.remove(requireCaller(context), idOf(input.id, 'NotificationTarget'));
    return { deletedNotificationTargetId: input.id };
  }

  @Mutation(() => SetAlertTargetsPayload, {
    description: 'Sets the targets an alert (yours, or the system default) sends to: exactly these, each once.',
  })
  async setAlertTargets(
    @Arg('input', () => SetAlertTargetsInput, { description: 'The alert and its targets.' })
    input: SetAlertTargetsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const caller = requireCaller(context);
    const alertId = idOf(input.alertId, 'Alert', 'alertId');
    const targetIds = idsOf(input.targetIds, 'NotificationTarget', 'targetIds');
    const set = await this.targets.setAlertTargets(caller, alertId, targetIds);
    return { notificationTargets: await this.viewsOf(caller, set) };
  }

  @Mutation(() => SendTestNotificationPayload, {
    description: 'Sends a sample reminder to one of your targets now; answers its delivery after the first attempt.',
  })
  async sendTestNotification(
    @Arg('input', () => SendTestNotificationInput, { description: 'The target to try.' })
    input: SendTestNotificationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const row = await this.targets.sendTest(requireCaller(context), idOf(input.id, 'NotificationTarget'));
    return { delivery: toDeliveryView(row, await this.log.attempts([row.id])) };
  }

  /** The caller's targets of these ids, in id order. */
  private async viewsOf(caller: Caller, ids: readonly number[]): Promise<NotificationTargetView[]> {
    const wanted = new Set(ids);
    return (await this.targets.list(caller)).filter((target) => wanted.has(target.id)).map(toNotificationTargetView);
  }
}
