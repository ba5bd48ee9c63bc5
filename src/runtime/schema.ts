import type { GraphQLSchema } from 'graphql';
import { buildSchema, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';

import { AccountAdminResolver, accountNodeLookup, UserAdminResolver } from '../admin/account.resolver';
import { auditEntryNodeLookup, InstanceResolver } from '../admin/instance.resolver';
import { invitationNodeLookup, InvitationResolver } from '../admin/invitation.resolver';
import { alertNodeLookup, AlertResolver } from '../alerts/alert.resolver';
import { AuthResolver, userNodeLookup } from '../auth/auth.resolver';
import { OidcResolver } from '../auth/oidc.resolver';
import { PasswordResolver } from '../auth/password.resolver';
import { personalTokenNodeLookups, PersonalTokenResolver } from '../auth/personal-tokens.resolver';
import { TwoFactorResolver } from '../auth/two-factor.resolver';
import { calendarFeedNodeLookup, CalendarFeedResolver } from '../calendar-feeds/calendar-feed.resolver';
import { CatalogueResolver, productNodeLookup } from '../catalogue/catalogue.resolver';
import { CurrenciesResolver } from '../currency/currency.resolver';
import { DetectionResolver, proposalLookup } from '../detection/detection.resolver';
import { ExportResolver } from '../exports/export.resolver';
import { householdNodeLookups, HouseholdResolver, SubscriptionSharingResolver } from '../households/household.resolver';
import { ImportResolver } from '../imports/import.resolver';
import { LedgerResolver, paymentEntryLookup } from '../ledger/ledger.resolver';
import { LiveResolver } from '../live/live.resolver';
import { LogoResolver } from '../logos/logo.resolver';
import {
  notificationTargetNodeLookup,
  NotificationTargetResolver,
} from '../notifications/notification-target.resolver';
import {
  FolderResolver,
  namedNodeLookup,
  PaymentModeResolver,
  ProductCategoryResolver,
  TagResolver,
} from '../organizing/organizing.resolver';
import { toCategoryView, toFolderView, toPaymentModeView, toTagView } from '../organizing/organizing.types';
import { type NodeLookup, NodeResolver, withNodeIds } from '../platform/graphql/node';
import { withUserErrorPayloads } from '../platform/graphql/payloads';
import { reminderNodeLookup, ReminderResolver } from '../reminders/reminder.resolver';
import { ProfileResolver } from '../settings/profile.resolver';
import { SettingsResolver } from '../settings/settings.resolver';
import { budgetLookup, SpendingResolver } from '../spending/spending.resolver';
import { recordNodeLookup, SubscriptionResolver } from '../subscriptions/subscription.resolver';
import { webhookNodeLookups, WebhooksResolver } from '../webhooks/webhooks.resolver';
import type { Services } from './services';

/** How `node(id:)` finds each type that has an id, as the caller sees it. */
function nodeLookups(services: Services): Record<string, NodeLookup> {
  return {
    Folder: namedNodeLookup(services.folders, toFolderView),
    Tag: namedNodeLookup(services.tags, toTagView),
    PaymentMode: namedNodeLookup(services.paymentModes, toPaymentModeView),
    ProductCategory: namedNodeLookup(services.categories, toCategoryView),
    Alert: alertNodeLookup(services.alerts),
    Reminder: reminderNodeLookup(services.reminders),
    NotificationTarget: notificationTargetNodeLookup(services.notificationTargets),
    CalendarFeed: calendarFeedNodeLookup(services.calendarFeeds),
    User: userNodeLookup(services.auth),
    ...personalTokenNodeLookups(services.personalTokens),
    SubscriptionRecord: recordNodeLookup(services.subscriptions),
    Product: productNodeLookup(services.catalogue),
    ...webhookNodeLookups(services.endpoints, services.inboundTokens, services.deliveryLog),
    ...householdNodeLookups(services.households),
    PaymentEntry: paymentEntryLookup(services.ledger),
    Budget: budgetLookup(services.spending),
    SubscriptionProposal: proposalLookup(services.detection),
    Account: accountNodeLookup(services.accountAdmin),
    Invitation: invitationNodeLookup(services.invitations),
    AuditEntry: auditEntryNodeLookup(services.auditLog),
  };
}

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
    new NodeResolver(nodeLookups(services)),
    new AuthResolver(services.auth),
    new OidcResolver(services.oidc),
    new PersonalTokenResolver(services.personalTokens),
    new PasswordResolver(services.passwords),
    new TwoFactorResolver(services.twoFactor, services.auth),
    new SubscriptionResolver(services.subscriptions),
    new ProfileResolver(services.profile),
    new AlertResolver(services.alerts),
    new ReminderResolver(services.reminders),
    new CatalogueResolver(services.catalogue),
    new LogoResolver(services.logos),
    new CurrenciesResolver(services.rates),
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
    new AccountAdminResolver(services.accountAdmin),
    new InvitationResolver(services.invitations),
    new InstanceResolver(services.signUpMode, services.auditLog),
    new UserAdminResolver(services.accountAdmin),
  ];
}

/** The root types' descriptions, which type-graphql has no place for. */
function describeRoots(schema: GraphQLSchema): void {
  const roots = [
    [schema.getQueryType(), 'Reads: what you may see, as of now.'],
    [schema.getMutationType(), 'Changes: each takes one input and answers a payload with its userErrors.'],
    [schema.getSubscriptionType(), 'Live updates over WebSocket (graphql-ws), as they commit.'],
  ] as const;
  for (const [type, description] of roots) if (type) type.description = description;
}

export async function buildAppSchema(services: Services): Promise<GraphQLSchema> {
  const resolvers = createResolvers(services);
  const byClass = new Map<unknown, object>(resolvers.map((resolver) => [resolver.constructor, resolver]));
  const schema = await buildSchema({
    resolvers: resolvers.map((resolver) => resolver.constructor) as unknown as NonEmptyArray<ClassType>,
    container: { get: (resolverClass) => byClass.get(resolverClass) },
    // Input rules live in the domain alone (one rule layer), so both transports refuse alike.
    validate: false,
    // Every subscription field brings its own stream (src/live); type-graphql asks for a pubSub all the same.
    pubSub: NO_PUBSUB,
  });
  describeRoots(schema);
  return withUserErrorPayloads(withNodeIds(schema, nodeLookups(services)));
}
