import { DateTimeResolver } from 'graphql-scalars';
import {
  Arg,
  Args,
  Ctx,
  Field,
  ID,
  InputType,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';

import { ReminderChannel } from '../alerts/alert.types';
import { AppError } from '../platform/errors';
import { Connection, type Page, PageArgs, pageOfList } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, toGlobalId } from '../platform/graphql/global-ids';
import { Node, type NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { toIsoMicros } from '../platform/wire-formats';
import type { ReminderRow } from './reminder.repository';
import type { ReminderService } from './reminder.service';

/** The date a reminder is of (the service's names, reminder-schedule.ts). */
export const ReminderKind = { PAYMENT: 'payment', REFUND: 'refund', CONTRACT_NOTICE: 'contract_notice' } as const;
/** Where a reminder is in its life (the reminders table's statuses). */
export const ReminderStatus = { SCHEDULED: 'SCHEDULED', SENT: 'SENT', CANCELLED: 'CANCELLED' } as const;

registerEnumType(ReminderKind, {
  name: 'ReminderKind',
  description: 'The date a reminder is of.',
  valuesConfig: {
    PAYMENT: { description: 'A payment (due) date.' },
    REFUND: { description: 'The end of a refund window.' },
    CONTRACT_NOTICE: { description: 'The last day to cancel a contract before it renews.' },
  },
});

registerEnumType(ReminderStatus, {
  name: 'ReminderStatus',
  description: 'Where a reminder is in its life.',
  valuesConfig: {
    SCHEDULED: { description: 'Waiting for its fire time.' },
    SENT: { description: "Sent through its alert's channels." },
    CANCELLED: { description: 'No longer owed: its record or alert changed, or the record ended.' },
  },
});

@ObjectType('Reminder', {
  implements: Node,
  description: 'One reminder of one date of a record, from one alert definition.',
})
class ReminderView {
  id!: number;
  @Field(() => ID, { description: 'The global id of the record (SubscriptionRecord) it reminds of.' })
  subscriptionId!: string;
  @Field(() => ID, { description: 'The global id of the alert it comes from.' }) alertId!: string;
  @Field(() => ReminderKind, { description: 'The date it is of.' }) kind!: string;
  @Field(() => LocalDateScalar, { description: 'The date reminded of.' }) date!: string;
  @Field(() => DateTimeResolver, { description: 'When it fires (or fired).' }) fireAt!: string;
  @Field(() => ReminderStatus, { description: 'Where it is in its life.' }) status!: string;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When it was sent; null until it is.' })
  sentAt!: string | null;
}

@ObjectType('ReminderConnection', { description: 'A page of reminders.' })
class ReminderConnection extends Connection('Reminder', ReminderView) {}

const toView = (row: ReminderRow): ReminderView => ({
  id: row.id,
  subscriptionId: toGlobalId('SubscriptionRecord', row.subscription_id),
  alertId: toGlobalId('Alert', row.alert_id),
  kind: row.kind,
  date: row.reminder_date,
  fireAt: toIsoMicros(row.fire_at)!,
  status: row.status,
  sentAt: toIsoMicros(row.sent_at),
});

/** `node(id:)` for a reminder: the caller's own. */
export function reminderNodeLookup(service: ReminderService): NodeLookup {
  return async (caller, id) => toView(await service.get(caller, id));
}

@InputType('SendTestReminderInput', { description: 'The alert to try.' })
class SendTestReminderInput {
  @Field(() => ID, { description: 'The global id of one of your alerts, or of the system default.' })
  alertId!: string;
}

const SendTestReminderPayload = MutationPayload(
  'SendTestReminderPayload',
  'channels',
  () => [ReminderChannel],
  'The channels a sample reminder went through.',
);

const MAX_RANGE_MS = 366 * 86_400_000;
/** Pages of the schedule: the range holds at most 366 days of reminders. */
const REMINDER_PAGES = { defaultSize: 500, maxSize: 1000 };

@Resolver()
export class ReminderResolver {
  constructor(private readonly service: ReminderService) {}

  @Query(() => ReminderConnection, {
    description: `The schedule: your reminders that fire, or fired, within [from, to], in fire order (${REMINDER_PAGES.defaultSize} a page unless first or last says otherwise, at most ${REMINDER_PAGES.maxSize}).`,
  })
  async reminders(
    @Arg('from', () => DateTimeResolver, { description: 'The start of the range.' }) from: Date,
    @Arg('to', () => DateTimeResolver, { description: 'The end of the range: after from, at most 366 days later.' })
    to: Date,
    @Args() page: PageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<Page<ReminderView>> {
    if (to < from || to.getTime() - from.getTime() > MAX_RANGE_MS)
      throw AppError.field('to', 'The to must be after from, at most 366 days later.');
    const rows = await this.service.list(requireCaller(context), from, to, ['SCHEDULED', 'SENT']);
    return pageOfList(rows, page, REMINDER_PAGES, toView);
  }

  @Query(() => [ReminderView], {
    description: 'Your reminders that fired and whose date is still ahead, by date (for the browser extension).',
  })
  async dueReminders(@Ctx() context: GraphQLContext): Promise<ReminderView[]> {
    return (await this.service.due(requireCaller(context))).map(toView);
  }

  @Mutation(() => SendTestReminderPayload, {
    description: "Sends a sample reminder through the alert's channels now; answers the channels it went through.",
  })
  async sendTestReminder(
    @Arg('input', () => SendTestReminderInput, { description: 'The alert to try.' }) input: SendTestReminderInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return { channels: await this.service.sendTest(requireCaller(context), idOf(input.alertId, 'Alert', 'alertId')) };
  }
}
