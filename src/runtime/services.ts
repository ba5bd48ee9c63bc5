import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import { AlertRepository } from '../alerts/alert.repository';
import { AlertService } from '../alerts/alert.service';
import { AccessTokenRepository } from '../auth/access-token.repository';
import { AuthService } from '../auth/auth.service';
import { LoginThrottle } from '../auth/login-throttle';
import { UserRepository } from '../auth/user.repository';
import { CalendarFeedRepository } from '../calendar-feeds/calendar-feed.repository';
import { CalendarFeedService } from '../calendar-feeds/calendar-feed.service';
import { CatalogueService } from '../catalogue/catalogue.service';
import { ProductRepository } from '../catalogue/product.repository';
import { ProductCategory } from '../catalogue/product-category.entity';
import { ProductCategoryRepository } from '../catalogue/product-category.repository';
import { ExchangeRateRepository } from '../currency/exchange-rate.repository';
import { RatesRefreshService } from '../currency/rates.service';
import { AccountExportService, type AccountSources } from '../exports/account-export.service';
import { HouseholdService } from '../households/household.service';
import { ImportRepository } from '../imports/import.repository';
import { ImportService } from '../imports/import.service';
import { LedgerService } from '../ledger/ledger.service';
import { NotificationSender } from '../notifications/notification-sender';
import { NotificationTargetRepository } from '../notifications/notification-target.repository';
import { NotificationTargetService } from '../notifications/notification-target.service';
import { Folder } from '../organizing/folder.entity';
import { validateFolder, validatePaymentMode } from '../organizing/organizing.rules';
import { OwnedNamesRepository } from '../organizing/owned-names.repository';
import { OwnedNamesService } from '../organizing/owned-names.service';
import { PaymentMode } from '../organizing/payment-mode.entity';
import { TagRepository } from '../organizing/tag.repository';
import { AnswerCache } from '../platform/answer-cache';
import type { Config } from '../platform/config';
import { DataSource } from '../platform/db/data-source';
import { pooled } from '../platform/db/statements';
import type { Logger } from '../platform/logger';
import type { LimiterStores } from '../platform/ops/limiters';
import { SecretBox } from '../platform/secret-box';
import { ReminderRepository } from '../reminders/reminder.repository';
import { ReminderService } from '../reminders/reminder.service';
import { ReminderMailer } from '../reminders/reminder-mail';
import { ExtensionSettingsRepository } from '../settings/extension-settings.repository';
import { ProfileService } from '../settings/profile.service';
import { SettingsService } from '../settings/settings.service';
import { BudgetWarningService } from '../spending/budget-warnings';
import { SpendingRepository } from '../spending/spending.repository';
import { SpendingService } from '../spending/spending.service';
import { SubscriptionRepository } from '../subscriptions/subscription.repository';
import { SubscriptionService } from '../subscriptions/subscription.service';
import { DeliveryService, type DeliveryTiming } from '../webhooks/delivery.service';
import { DeliveryLogService } from '../webhooks/delivery-log.service';
import { WebhookEndpointService } from '../webhooks/endpoint.service';
import { InboundTokenService } from '../webhooks/inbound-token.service';
import { OutboxSignal } from '../webhooks/outbox';

/** The domain services, built once per process; the REST facade and GraphQL resolvers both call these. */
export interface Services extends AccountSources {
  catalogue: CatalogueService;
  /** Fires after every commit that wrote outbox events. */
  outbox: OutboxSignal;
  reminders: ReminderService;
  profile: ProfileService;
  inboundTokens: InboundTokenService;
  deliveryLog: DeliveryLogService;
  /** Answers of records kept until their user's data changes. */
  answers: AnswerCache;
  calendarFeeds: CalendarFeedService;
  exports: AccountExportService;
  imports: ImportService;
  /** Attempts of outbound deliveries (webhook endpoints and notification targets), for the relay and workers. */
  deliveries: DeliveryService;
  notificationTargets: NotificationTargetService;
  /** The scheduled exchange-rate refresh (RATES_URL), and how it last went. */
  rates: RatesRefreshService;
  /** Spending reports and budgets. */
  spending: SpendingService;
  /** The payment ledger: what was paid. */
  ledger: LedgerService;
  /** Households: members, and the records shared in them. */
  households: HouseholdService;
  /** Warnings when next month's planned total exceeds a budget (the sweep's). */
  budgetWarnings: BudgetWarningService;
}

export function createServices(
  orm: MikroORM<PostgreSqlDriver>,
  config: Config,
  stores: LimiterStores,
  logger: Logger,
  clock: () => Date = () => new Date(),
  deliveryTiming?: DeliveryTiming,
): Services {
  const data = new DataSource(orm);
  const alertRepository = new AlertRepository(data);
  const users = new UserRepository(data);
  const exchangeRates = new ExchangeRateRepository(data);
  const outbox = new OutboxSignal();
  const mailer = config.smtpUrl ? new ReminderMailer(config.smtpUrl, config.smtpFrom) : null;
  const secrets = config.notifySecretKey ? new SecretBox(config.notifySecretKey) : null;
  const deliveries = new DeliveryService(orm, config, new NotificationSender(secrets, config, mailer), deliveryTiming);
  const subscriptions = new SubscriptionRepository(orm, stores.reads);
  const spendingRepository = new SpendingRepository(stores.reads);
  const households = new HouseholdService(
    orm,
    mailer ? (to, subject, text) => mailer.sendText(to, subject, text) : null,
    logger,
  );
  const reminders = new ReminderService(
    orm,
    new ReminderRepository(orm),
    subscriptions,
    outbox,
    mailer,
    logger,
    config.baseUrl,
    clock,
  );
  const records = new SubscriptionService(
    orm,
    subscriptions,
    `${config.baseUrl}/static/default-product.svg`,
    outbox,
    reminders,
    households,
    clock,
  );
  const services = {
    outbox,
    reminders,
    profile: new ProfileService(data, users, exchangeRates, subscriptions, reminders),
    auth: new AuthService(users, new AccessTokenRepository(data, stores.reads), config, new LoginThrottle(stores)),
    subscriptions: records,
    folders: new OwnedNamesService(data, new OwnedNamesRepository(data, Folder), {
      label: 'Folder',
      validate: validateFolder,
      singleDefault: true,
    }),
    tags: new OwnedNamesService(data, new TagRepository(data), { label: 'Tag' }),
    paymentModes: new OwnedNamesService(data, new OwnedNamesRepository(data, PaymentMode), {
      label: 'Payment mode',
      validate: validatePaymentMode,
    }),
    categories: new OwnedNamesService(data, new OwnedNamesRepository(data, ProductCategory, { includeGlobal: true }), {
      label: 'Category',
    }),
    alerts: new AlertService(data, alertRepository, reminders),
    catalogue: new CatalogueService(new ProductRepository(data), new ProductCategoryRepository(data)),
    settings: new SettingsService(data, new ExtensionSettingsRepository(data)),
    endpoints: new WebhookEndpointService(orm, config),
    inboundTokens: new InboundTokenService(orm),
    deliveryLog: new DeliveryLogService(orm, outbox),
    answers: new AnswerCache(config.answerCacheMb * 1024 * 1024, clock),
    calendarFeeds: new CalendarFeedService(
      new CalendarFeedRepository(data, stores.reads),
      alertRepository,
      subscriptions,
      // SubscriptionRepository still takes an EntityManager (the subscriptions' share of issue 41).
      (ids) => subscriptions.alertLinks(orm.em.fork(), ids),
      config.baseUrl,
    ),
    deliveries,
    notificationTargets: new NotificationTargetService(
      data,
      new NotificationTargetRepository(data),
      alertRepository,
      config,
      secrets,
      subscriptions,
      deliveries,
      pooled(orm),
    ),
    rates: new RatesRefreshService(data, exchangeRates, config, logger, clock),
    ledger: new LedgerService(orm, households, clock),
    households,
    spending: new SpendingService(orm, spendingRepository, records, households),
  };
  return {
    ...services,
    exports: new AccountExportService(services, config.baseUrl, clock),
    imports: new ImportService(orm, new ImportRepository(orm), services),
    budgetWarnings: new BudgetWarningService(orm, spendingRepository, outbox, mailer, logger, config.baseUrl, clock),
  };
}
