import type { GraphQLSchema } from 'graphql';
import { buildSchema, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';

import { AlertResolver } from '../alerts/alert.resolver';
import { AuthResolver } from '../auth/auth.resolver';
import { CalendarFeedResolver } from '../calendar-feeds/calendar-feed.resolver';
import { CatalogueResolver } from '../catalogue/catalogue.resolver';
import { DetectionResolver } from '../detection/detection.resolver';
import { ExportResolver } from '../exports/export.resolver';
import { HouseholdResolver, SubscriptionSharingResolver } from '../households/household.resolver';
import { ImportResolver } from '../imports/import.resolver';
import { LedgerResolver } from '../ledger/ledger.resolver';
import { LiveResolver } from '../live/live.resolver';
import { NotificationTargetResolver } from '../notifications/notification-target.resolver';
import {
  FolderResolver,
  PaymentModeResolver,
  ProductCategoryResolver,
  TagResolver,
} from '../organizing/organizing.resolver';
import { ReminderResolver } from '../reminders/reminder.resolver';
import { ProfileResolver } from '../settings/profile.resolver';
import { SettingsResolver } from '../settings/settings.resolver';
import { SpendingResolver } from '../spending/spending.resolver';
import { SubscriptionResolver } from '../subscriptions/subscription.resolver';
import { WebhooksResolver } from '../webhooks/webhooks.resolver';
import type { Services } from './services';

/** Stands in for type-graphql's topics, which no field uses. */
const NO_PUBSUB: PubSub = {
  publish: () => undefined,
  subscribe: () => {
    throw new Error('subscription fields bring their own streams');
  },
};

/** One instance of every resolver, built on the services. */
function createResolvers(services: Services): NonEmptyArray<object> {
  return [
    new AuthResolver(services.auth),
    new SubscriptionResolver(services.subscriptions),
    new ProfileResolver(services.profile),
    new AlertResolver(services.alerts),
    new ReminderResolver(services.reminders),
    new CatalogueResolver(services.catalogue),
    new SettingsResolver(services.settings),
    new WebhooksResolver(services.endpoints, services.inboundTokens, services.deliveryLog),
    new FolderResolver(services.folders),
    new TagResolver(services.tags),
    new PaymentModeResolver(services.paymentModes),
    new ProductCategoryResolver(services.categories),
    new CalendarFeedResolver(services.calendarFeeds),
    new ExportResolver(services.exports),
    new ImportResolver(services.imports),
    new DetectionResolver(services.detection),
    new SpendingResolver(services.spending),
    new LedgerResolver(services.ledger),
    new HouseholdResolver(services.households, services.subscriptions),
    new SubscriptionSharingResolver(services.households, services.subscriptions),
    new NotificationTargetResolver(services.notificationTargets, services.deliveryLog),
    new LiveResolver(),
  ];
}

export async function buildAppSchema(services: Services): Promise<GraphQLSchema> {
  const resolvers = createResolvers(services);
  const byClass = new Map<unknown, object>(resolvers.map((resolver) => [resolver.constructor, resolver]));
  return buildSchema({
    resolvers: resolvers.map((resolver) => resolver.constructor) as unknown as NonEmptyArray<ClassType>,
    container: { get: (resolverClass) => byClass.get(resolverClass) },
    // Input rules live in the domain alone (one rule layer), so both transports refuse alike.
    validate: false,
    // Every subscription field brings its own stream (src/live); type-graphql asks for a pubSub all the same.
    pubSub: NO_PUBSUB,
  });
}
