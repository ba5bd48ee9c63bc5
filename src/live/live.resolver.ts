import { Resolver, Root, Subscription } from 'type-graphql';

import { AppError } from '../platform/errors';
import type { GraphQLContext } from '../platform/graphql/context';
import type { LiveCaller, LiveFeeds } from './live.streams';
import { BudgetExceededView, DeliveryChangedView, RecordChangedView, ReminderFiredView } from './live.types';

/** A subscription's context: the connection's caller and the process's feeds (WebSocket only). */
export interface LiveContext extends GraphQLContext {
  live?: { feeds: LiveFeeds; who: LiveCaller };
}

/** The feeds of a subscription's connection; subscriptions are served over WebSocket only. */
function liveOf(context: unknown): { feeds: LiveFeeds; who: LiveCaller } {
  const live = (context as LiveContext).live;
  if (!live)
    throw new AppError('BAD_USER_INPUT', 'Subscriptions are served over WebSocket (graphql-transport-ws) on /graphql');
  return live;
}

/**
 * Live updates: every field streams what the connection's caller may read, from the changes of every process
 * (see src/live/live.server.ts and src/platform/live-events.ts).
 */
@Resolver()
export class LiveResolver {
  @Subscription(() => RecordChangedView, {
    description:
      'A record the caller may read (their own, or one shared in their household) was created, changed, deleted, cancelled or refunded.',
    subscribe: ({ context }) => {
      const { feeds, who } = liveOf(context);
      return feeds.records(who);
    },
  })
  recordChanged(@Root() change: RecordChangedView): RecordChangedView {
    return change;
  }

  @Subscription(() => DeliveryChangedView, {
    description:
      "One of the caller's deliveries (webhook endpoints, notification targets) was written or changed status.",
    subscribe: ({ context }) => {
      const { feeds, who } = liveOf(context);
      return feeds.deliveries(who);
    },
  })
  deliveryChanged(@Root() change: DeliveryChangedView): DeliveryChangedView {
    return change;
  }

  @Subscription(() => ReminderFiredView, {
    description:
      "A reminder of one of the caller's records fired (a payment, a refund window's end, a contract's notice).",
    subscribe: ({ context }) => {
      const { feeds, who } = liveOf(context);
      return feeds.reminders(who);
    },
  })
  reminderFired(@Root() reminder: ReminderFiredView): ReminderFiredView {
    return reminder;
  }

  @Subscription(() => BudgetExceededView, {
    description: "Next month's planned total went over one of the caller's budgets.",
    subscribe: ({ context }) => {
      const { feeds, who } = liveOf(context);
      return feeds.budgets(who);
    },
  })
  budgetExceeded(@Root() warning: BudgetExceededView): BudgetExceededView {
    return warning;
  }
}
