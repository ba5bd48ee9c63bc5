import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { AppError } from '../platform/errors';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { toIsoMicros } from '../platform/wire-formats';
import type { ReminderRow } from './reminder.repository';
import type { ReminderService } from './reminder.service';

@ObjectType('Reminder', { description: 'One reminder of a payment or refund date, from one alert definition.' })
class ReminderView {
  @Field(() => Int) id!: number;
  @Field(() => Int) subscriptionId!: number;
  @Field(() => Int) alertId!: number;
  @Field({ description: 'payment, refund or contract_notice (the last day to cancel a contract)' }) kind!: string;
  @Field(() => LocalDateScalar, { description: 'The date reminded of' }) date!: string;
  @Field(() => DateTimeResolver) fireAt!: string;
  @Field({ description: 'SCHEDULED, SENT or CANCELLED' }) status!: string;
  @Field(() => DateTimeResolver, { nullable: true }) sentAt!: string | null;
}

const toView = (row: ReminderRow): ReminderView => ({
  id: row.id,
  subscriptionId: row.subscription_id,
  alertId: row.alert_id,
  kind: row.kind,
  date: row.reminder_date,
  fireAt: toIsoMicros(row.fire_at)!,
  status: row.status,
  sentAt: toIsoMicros(row.sent_at),
});

const MAX_RANGE_MS = 366 * 86_400_000;

@Resolver()
export class ReminderResolver {
  constructor(private readonly service: ReminderService) {}

  @Query(() => [ReminderView], { description: 'The schedule: reminders that fire, or fired, within [from, to].' })
  async reminders(
    @Arg('from', () => DateTimeResolver) from: Date,
    @Arg('to', () => DateTimeResolver) to: Date,
    @Ctx() context: GraphQLContext,
  ): Promise<ReminderView[]> {
    if (to < from || to.getTime() - from.getTime() > MAX_RANGE_MS)
      throw AppError.field('to', 'The to must be after from, at most 366 days later.');
    return (await this.service.list(requireCaller(context), from, to, ['SCHEDULED', 'SENT'])).map(toView);
  }

  @Query(() => [ReminderView], {
    description: 'Reminders that fired and whose date is still ahead (for the browser extension).',
  })
  async dueReminders(@Ctx() context: GraphQLContext): Promise<ReminderView[]> {
    return (await this.service.due(requireCaller(context))).map(toView);
  }

  @Mutation(() => [String], {
    description: "Sends a sample reminder through the alert's channels now; answers the channels used.",
  })
  async sendTestReminder(
    @Arg('alertId', () => Int) alertId: number,
    @Ctx() context: GraphQLContext,
  ): Promise<string[]> {
    return this.service.sendTest(requireCaller(context), alertId);
  }
}
