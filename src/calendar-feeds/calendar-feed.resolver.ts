import { DateTimeResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { toIsoMicros } from '../platform/wire-formats';
import type { CalendarFeed } from './calendar-feed.entity';
import type { CalendarFeedService } from './calendar-feed.service';

@InputType()
class CalendarFeedInput {
  @Field() name!: string;
  @Field({
    defaultValue: false,
    description: 'An alarm per alert definition of each record, at the offset its reminders use.',
  })
  includeReminders!: boolean;
}

@ObjectType('CalendarFeed')
class CalendarFeedView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() includeReminders!: boolean;
  @Field(() => DateTimeResolver) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true }) revokedAt!: string | null;
}

@ObjectType('NewCalendarFeed', {
  description: 'Subscribe to the url in a calendar app; it holds the secret token and is shown this once.',
})
class NewCalendarFeedView extends CalendarFeedView {
  @Field() url!: string;
}

const toView = (feed: CalendarFeed): CalendarFeedView => ({
  id: feed.id,
  name: feed.name,
  includeReminders: feed.includeReminders,
  createdAt: toIsoMicros(feed.createdAt)!,
  revokedAt: toIsoMicros(feed.revokedAt ?? null),
});

@Resolver()
export class CalendarFeedResolver {
  constructor(private readonly feeds: CalendarFeedService) {}

  @Query(() => [CalendarFeedView], { description: 'Your calendar feeds (their URLs are not shown again).' })
  async calendarFeeds(@Ctx() context: GraphQLContext): Promise<CalendarFeedView[]> {
    return (await this.feeds.list(requireCaller(context))).map(toView);
  }

  @Mutation(() => NewCalendarFeedView)
  async createCalendarFeed(
    @Arg('input', () => CalendarFeedInput) input: CalendarFeedInput,
    @Ctx() context: GraphQLContext,
  ): Promise<NewCalendarFeedView> {
    const { feed, url } = await this.feeds.create(requireCaller(context), input);
    return { ...toView(feed), url };
  }

  @Mutation(() => CalendarFeedView, { description: 'Ends a feed: its URL answers 404 from then on.' })
  async revokeCalendarFeed(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<CalendarFeedView> {
    return toView(await this.feeds.revoke(requireCaller(context), id));
  }
}
