import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import { Node, type NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { toIsoMicros } from '../platform/wire-formats';
import type { CalendarFeed } from './calendar-feed.entity';
import type { CalendarFeedService } from './calendar-feed.service';

@InputType('CreateCalendarFeedInput', { description: 'A new calendar feed.' })
class CreateCalendarFeedInput {
  @Field({ description: 'Its name, 1 to 100 characters.' }) name!: string;
  @Field({
    defaultValue: false,
    description: 'Whether each payment carries an alarm per alert of its record, at the offset its reminders use.',
  })
  includeReminders!: boolean;
}

@InputType('RevokeCalendarFeedInput', { description: 'The calendar feed to end.' })
class RevokeCalendarFeedInput {
  @Field(() => ID, { description: 'The global id of one of your calendar feeds.' }) id!: string;
}

@ObjectType('CalendarFeed', {
  implements: Node,
  description: 'An iCalendar feed of your payment dates, read by calendar apps from a secret URL.',
})
class CalendarFeedView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field({ description: 'Whether payments carry alarms at the offsets of their alerts.' }) includeReminders!: boolean;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it was revoked (its URL answers 404 since); null while it is live.',
  })
  revokedAt!: string | null;
}

const CreateCalendarFeedPayload = MutationPayload(
  'CreateCalendarFeedPayload',
  'calendarFeed',
  () => CalendarFeedView,
  'The new calendar feed and its URL.',
  {
    url: {
      type: () => String,
      description: 'The URL to subscribe to in a calendar app: it holds the secret token and is shown this once.',
    },
  },
);
const RevokeCalendarFeedPayload = MutationPayload(
  'RevokeCalendarFeedPayload',
  'calendarFeed',
  () => CalendarFeedView,
  'The revoked calendar feed.',
);

const toView = (feed: CalendarFeed): CalendarFeedView => ({
  id: feed.id,
  name: feed.name,
  includeReminders: feed.includeReminders,
  createdAt: toIsoMicros(feed.createdAt)!,
  revokedAt: toIsoMicros(feed.revokedAt ?? null),
});

/** `node(id:)` for a calendar feed: the caller's own (revoked ones too). */
export function calendarFeedNodeLookup(service: CalendarFeedService): NodeLookup {
  return async (caller, id) => {
    const feed = (await service.list(caller)).find((candidate) => candidate.id === id);
    return feed ? toView(feed) : null;
  };
}

@Resolver()
export class CalendarFeedResolver {
  constructor(private readonly feeds: CalendarFeedService) {}

  @Query(() => [CalendarFeedView], { description: 'Your calendar feeds (their URLs are not shown again).' })
  async calendarFeeds(@Ctx() context: GraphQLContext): Promise<CalendarFeedView[]> {
    return (await this.feeds.list(requireCaller(context))).map(toView);
  }

  @Mutation(() => CreateCalendarFeedPayload, { description: 'Makes a calendar feed; its URL is answered this once.' })
  async createCalendarFeed(
    @Arg('input', () => CreateCalendarFeedInput, { description: 'The new feed.' }) input: CreateCalendarFeedInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { feed, url } = await this.feeds.create(requireCaller(context), input);
    return { calendarFeed: toView(feed), url };
  }

  @Mutation(() => RevokeCalendarFeedPayload, { description: 'Ends a feed: its URL answers 404 from then on.' })
  async revokeCalendarFeed(
    @Arg('input', () => RevokeCalendarFeedInput, { description: 'The feed to end.' }) input: RevokeCalendarFeedInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    return { calendarFeed: toView(await this.feeds.revoke(requireCaller(context), idOf(input.id, 'CalendarFeed'))) };
  }
}
