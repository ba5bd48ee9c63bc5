import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { definedOnly } from '../platform/objects';
import { toIsoMicros } from '../platform/wire-formats';
import type { Alert } from './alert.entity';
import type { AlertService } from './alert.service';

@ObjectType('Alert', {
  description: 'A reminder definition: timePeriod × timeCycle before a date, at time in timezone.',
})
export class AlertView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ description: 'true for the system default alert, which no one can change' }) isSystem!: boolean;
  @Field(() => Int) timePeriod!: number;
  @Field(() => Int, { description: '1 days, 2 weeks, 3 months' }) timeCycle!: number;
  @Field({ description: 'Local time, HH:MM:SS' }) time!: string;
  @Field({ description: 'IANA zone name' }) timezone!: string;
  @Field(() => Int, {
    description:
      '1 All (payment and refund dates, and the last day to cancel a contract), 2 before the due (payment) date, 3 before the refund date',
  })
  condition!: number;
  @Field(() => Int, { description: '1 All, 2 Email, 3 Browser (extension), 4 Webhook' }) channel!: number;
  @Field(() => Int, {
    description:
      'The record type it is for: 1 Subscription, 2 Trial, 3 Lifetime (the system default alert is for every type)',
  })
  subjects!: number;
  @Field(() => String, { nullable: true }) contact!: string | null;
  @Field(() => DateTimeResolver) createdAt!: string;
  @Field(() => DateTimeResolver) updatedAt!: string;
}

@InputType()
export class AlertUpdateInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) timePeriod?: number;
  @Field(() => Int, { nullable: true }) timeCycle?: number;
  @Field(() => String, { nullable: true }) time?: string;
  @Field(() => TimeZoneResolver, { nullable: true }) timezone?: string;
  @Field(() => Int, { nullable: true }) condition?: number;
  @Field(() => Int, { nullable: true }) channel?: number;
  @Field(() => Int, { nullable: true }) subjects?: number;
  @Field(() => String, { nullable: true }) contact?: string | null;
}

@InputType()
export class AlertCreateInput extends AlertUpdateInput {
  @Field() declare name: string;
  @Field(() => Int) declare timePeriod: number;
  @Field(() => Int, { defaultValue: 1 }) declare timeCycle: number;
  @Field() declare time: string;
  @Field(() => TimeZoneResolver) declare timezone: string;
  @Field(() => Int, { defaultValue: 2 }) declare condition: number;
  @Field(() => Int) declare channel: number;
  @Field(() => Int, { defaultValue: 1 }) declare subjects: number;
}

export function toAlertView(alert: Alert): AlertView {
  return {
    id: alert.id,
    name: alert.alertName,
    isSystem: alert.user === null || alert.user === undefined,
    timePeriod: alert.timePeriod,
    timeCycle: alert.timeCycle ?? 1,
    time: alert.time,
    timezone: alert.timezone,
    condition: alert.alertCondition,
    channel: alert.alertType,
    subjects: alert.alertSubsType,
    contact: alert.alertContact ?? null,
    createdAt: toIsoMicros(alert.createdAt)!,
    updatedAt: toIsoMicros(alert.updatedAt ?? alert.createdAt)!,
  };
}

/** GraphQL names → the domain's alert fields. */
function toAlertInput(input: AlertUpdateInput) {
  return definedOnly({
    alertName: input.name,
    timePeriod: input.timePeriod,
    timeCycle: input.timeCycle,
    time: input.time,
    timezone: input.timezone,
    alertCondition: input.condition,
    alertType: input.channel,
    alertSubsType: input.subjects,
    alertContact: input.contact,
  });
}

@Resolver()
export class AlertResolver {
  constructor(private readonly service: AlertService) {}

  @Query(() => [AlertView], { description: "The system default alert and the caller's own." })
  async alerts(@Ctx() context: GraphQLContext): Promise<AlertView[]> {
    const list = await this.service.list(requireCaller(context), {
      start: 0,
      length: 1000,
      sort: [{ field: 'id', direction: 'asc' }],
    });
    return list.map(toAlertView);
  }

  @Query(() => AlertView)
  async alert(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<AlertView> {
    return toAlertView(await this.service.get(requireCaller(context), id));
  }

  @Mutation(() => AlertView)
  async createAlert(
    @Arg('input', () => AlertCreateInput) input: AlertCreateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AlertView> {
    return toAlertView(await this.service.create(requireCaller(context), toAlertInput(input) as never));
  }

  @Mutation(() => AlertView)
  async updateAlert(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => AlertUpdateInput) input: AlertUpdateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AlertView> {
    return toAlertView(await this.service.update(requireCaller(context), id, toAlertInput(input)));
  }

  @Mutation(() => Boolean, { description: 'Records that used it move to the system default alert.' })
  async deleteAlert(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<boolean> {
    await this.service.remove(requireCaller(context), id);
    return true;
  }
}
