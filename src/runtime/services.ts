import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import { AccountRepository } from '../admin/account.repository';
import { AccountAdminService } from '../admin/account.service';
import { AdminAccess } from '../admin/admin-access';
import { AuditRepository } from '../admin/audit.repository';
import { AuditLog } from '../admin/audit.service';
import { InstanceSettingsRepository } from '../admin/instance-settings.repository';
import { InvitationRepository } from '../admin/invitation.repository';
import { InvitationService } from '../admin/invitation.service';
import { SignUpService } from '../admin/sign-up.service';
import { AlertRepository } from '../alerts/alert.repository';
import { AlertService } from '../alerts/alert.service';
import { AccessTokenRepository } from '../auth/access-token.repository';
import { AuthService } from '../auth/auth.service';
import { LoginThrottle } from '../auth/login-throttle';
import { OidcRepository } from '../auth/oidc.repository';
import { OidcService } from '../auth/oidc.service';
import { PasswordService } from '../auth/password.service';
import { PasswordResetRepository } from '../auth/password-reset.repository';
import { PersonalTokenService } from '../auth/personal-tokens.service';
import { ResetRequestThrottle } from '../auth/reset-throttle';
import { TwoFactorRepository } from '../auth/two-factor.repository';
import { TwoFactorService } from '../auth/two-factor.service';
import { UserRepository } from '../auth/user.repository';
import { CalendarFeedRepository } from '../calendar-feeds/calendar-feed.repository';
import { CalendarFeedService } from '../calendar-feeds/calendar-feed.service';
import { CatalogueService } from '../catalogue/catalogue.service';
import { ProductRepository } from '../catalogue/product.repository';
import { ProductCategory } from '../catalogue/product-category.entity';
import { ProductCategoryRepository } from '../catalogue/product-category.repository';
import { ExchangeRateRepository } from '../currency/exchange-rate.repository';
import { RatesRefreshService } from '../currency/rates.service';
import { DetectionService } from '../detection/detection.service';
import { ProposalRepository } from '../detection/proposal.repository';
import { AccountExportService, type AccountSources } from '../exports/account-export.service';
import { HouseholdRepository } from '../households/household.repository';
import { HouseholdService } from '../households/household.service';
import { ImportRepository } from '../imports/import.repository';
import { ImportService } from '../imports/import.service';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LedgerService } from '../ledger/ledger.service';
import { LogoRepository } from '../logos/logo.repository';
import { LogoService } from '../logos/logo.service';
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
import { PriceHistoryRepository } from '../subscriptions/price-history.repository';
import { createLoaders } from '../subscriptions/subscription.loaders';
import { SubscriptionRepository } from '../subscriptions/subscription.repository';
import { SubscriptionService } from '../subscriptions/subscription.service';
import { SubscriptionSweep } from '../subscriptions/subscription.sweep';
import { SubscriptionWrites } from '../subscriptions/subscription.writes';
import { LinkChecks } from '../subscriptions/subscription-links';
import { DeliveryRepository } from '../webhooks/delivery.repository';
import { DeliveryService, type DeliveryTiming } from '../webhooks/delivery.service';
import { DeliveryLogService } from '../webhooks/delivery-log.service';
import { WebhookEndpointRepository } from '../webhooks/endpoint.repository';
import { WebhookEndpointService } from '../webhooks/endpoint.service';
import { IdempotencyKeyRepository } from '../webhooks/idempotency-key.repository';
import { InboundTokenRepository } from '../webhooks/inbound-token.repository';
import { InboundTokenService } from '../webhooks/inbound-token.service';
import { OutboxSignal } from '../webhooks/outbox';

/** The domain services, built once per process; the REST facade and GraphQL resolvers both call these. */
export interface Services extends AccountSources {
  catalogue: CatalogueService;
  logos: LogoService;
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
  /** Recurring payments found in bank statements, proposed as records. */
  detection: DetectionService;
  /** Single sign-on over OpenID Connect (OIDC_ISSUER). */
  oidc: OidcService;
  /** Personal access tokens and sign-in sessions, as their owner manages them. */
  personalTokens: PersonalTokenService;
  /** Password changes and resets. */
  passwords: PasswordService;
  /** Two-factor authentication (TOTP and recovery codes). */
  twoFactor: TwoFactorService;
  /** The admin's work on accounts. */
  accountAdmin: AccountAdminService;
  /** Invitations to sign up. */
  invitations: InvitationService;
  /** Who may sign up (the admin's setting, ALLOW_SIGNUP until then). */
  signUpMode: SignUpService;
  /** What admins did. */
  auditLog: AuditLog;
}

type AdminServices = Pick<Services, 'accountAdmin' | 'invitations' | 'signUpMode' | 'auditLog'>;

export function createServices(
  orm: MikroORM<PostgreSqlDriver>,
  config: Config,
  stores: LimiterStores,
  logger: Logger,
  clock: () => Date = () => new Date(),
  deliveryTiming?: DeliveryTiming,
): Services {
  const data = new DataSource(orm);
  const repositories = {
    alerts: new AlertRepository(data),
    users: new UserRepository(data),
    exchangeRates: new ExchangeRateRepository(data),
    products: new ProductRepository(data),
    tags: new TagRepository(data),
    notificationTargets: new NotificationTargetRepository(data),
    deliveries: new DeliveryRepository(data),
    subscriptions: new SubscriptionRepository(data, stores.reads),
    priceHistory: new PriceHistoryRepository(data),
    reminders: new ReminderRepository(data),
    spending: new SpendingRepository(data, stores.reads),
  };
  const outbox = new OutboxSignal();
  const mailer = config.smtpUrl ? new ReminderMailer(config.smtpUrl, config.smtpFrom) : null;
  const sendMail = mailer && ((to: string, subject: string, text: string) => mailer.sendText(to, subject, text));
  const secrets = config.notifySecretKey ? new SecretBox(config.notifySecretKey) : null;
  const deliveries = new DeliveryService(
    repositories.deliveries,
    config,
    new NotificationSender(secrets, config, mailer),
    deliveryTiming,
  );
  const households = new HouseholdService(data, new HouseholdRepository(data), sendMail, logger);
  const reminders = new ReminderService(
    data,
    repositories.reminders,
    repositories.subscriptions,
    repositories.alerts,
    repositories.notificationTargets,
    outbox,
    mailer,
    logger,
    config.baseUrl,
    clock,
  );
  const accessTokens = new AccessTokenRepository(data, stores.reads);
  const loginThrottle = new LoginThrottle(stores);
  const subscriptions = subscriptionService(data, repositories, reminders, households, outbox, config, clock);
  const twoFactor = new TwoFactorService(
    data,
    new TwoFactorRepository(data),
    repositories.users,
    secrets,
    loginThrottle,
    clock,
  );
  const admin = adminServices(data, config, mailer, logger, accessTokens);
  const services = {
    outbox,
    reminders,
    profile: new ProfileService(
      data,
      repositories.users,
      repositories.exchangeRates,
      repositories.subscriptions,
      reminders,
    ),
    auth: new AuthService(repositories.users, accessTokens, config, loginThrottle, twoFactor, admin.signUpMode),
    passwords: new PasswordService(
      data,
      repositories.users,
      accessTokens,
      new PasswordResetRepository(data),
      { login: loginThrottle, resetRequests: new ResetRequestThrottle(stores) },
      sendMail,
      logger,
      config.baseUrl,
      clock,
    ),
    personalTokens: new PersonalTokenService(accessTokens, config),
    twoFactor,
    subscriptions,
    folders: new OwnedNamesService(data, new OwnedNamesRepository(data, Folder), {
      label: 'Folder',
      validate: validateFolder,
      singleDefault: true,
    }),
    tags: new OwnedNamesService(data, repositories.tags, { label: 'Tag' }),
    paymentModes: new OwnedNamesService(data, new OwnedNamesRepository(data, PaymentMode), {
      label: 'Payment mode',
      validate: validatePaymentMode,
    }),
    categories: new OwnedNamesService(data, new OwnedNamesRepository(data, ProductCategory, { includeGlobal: true }), {
      label: 'Category',
    }),
    alerts: new AlertService(data, repositories.alerts, reminders),
    catalogue: new CatalogueService(repositories.products, new ProductCategoryRepository(data)),
    logos: new LogoService(
      data,
      new LogoRepository(data),
      repositories.products,
      repositories.subscriptions,
      config,
      logger,
    ),
    settings: new SettingsService(data, new ExtensionSettingsRepository(data)),
    endpoints: new WebhookEndpointService(data, new WebhookEndpointRepository(data), config),
    inboundTokens: new InboundTokenService(data, new InboundTokenRepository(data), new IdempotencyKeyRepository(data)),
    deliveryLog: new DeliveryLogService(repositories.deliveries, outbox),
    answers: new AnswerCache(config.answerCacheMb * 1024 * 1024, clock),
    calendarFeeds: new CalendarFeedService(
      new CalendarFeedRepository(data, stores.reads),
      repositories.alerts,
      repositories.subscriptions,
      config.baseUrl,
    ),
    deliveries,
    notificationTargets: new NotificationTargetService(
      data,
      repositories.notificationTargets,
      repositories.alerts,
      config,
      secrets,
      repositories.subscriptions,
      deliveries,
      repositories.deliveries,
    ),
    rates: new RatesRefreshService(data, repositories.exchangeRates, config, logger, clock),
    ledger: new LedgerService(data, new LedgerRepository(data), repositories.priceHistory, households, clock),
    households,
    spending: new SpendingService(repositories.spending, repositories.alerts, subscriptions, households),
  };
  return {
    ...services,
    ...admin,
    exports: new AccountExportService(services, config.baseUrl, clock),
    imports: new ImportService(data, new ImportRepository(data), services),
    detection: new DetectionService(
      data,
      new ProposalRepository(data),
      subscriptions,
      services.catalogue,
      services.ledger,
      services.auth,
    ),
    oidc: new OidcService(data, new OidcRepository(data), repositories.users, services.auth, config),
    budgetWarnings: new BudgetWarningService(
      data,
      repositories.spending,
      repositories.alerts,
      repositories.notificationTargets,
      outbox,
      mailer,
      logger,
      config.baseUrl,
      clock,
    ),
  };
}

function adminServices(
  data: DataSource,
  config: Config,
  mailer: ReminderMailer | null,
  logger: Logger,
  accessTokens: AccessTokenRepository,
): AdminServices {
  const accounts = new AccountRepository(data);
  const invitations = new InvitationRepository(data);
  const access = new AdminAccess(accounts);
  const audit = new AuditLog(new AuditRepository(data), access);
  return {
    accountAdmin: new AccountAdminService(data, accounts, accessTokens, access, audit),
    invitations: new InvitationService(
      data,
      invitations,
      access,
      audit,
      config.baseUrl,
      mailer ? (to, subject, text) => mailer.sendText(to, subject, text) : null,
      logger,
    ),
    signUpMode: new SignUpService(data, new InstanceSettingsRepository(data), invitations, access, audit, config),
    auditLog: audit,
  };
}

/** The record service and the parts it is made of: the one write path, the sweep, the link checks, the loaders. */
function subscriptionService(
  data: DataSource,
  repositories: {
    subscriptions: SubscriptionRepository;
    priceHistory: PriceHistoryRepository;
    alerts: AlertRepository;
    products: ProductRepository;
    tags: TagRepository;
  },
  reminders: ReminderService,
  households: HouseholdService,
  outbox: OutboxSignal,
  config: Config,
  clock: () => Date,
): SubscriptionService {
  const links = new LinkChecks(repositories.alerts, repositories.products, repositories.tags);
  const defaultImage = `${config.baseUrl}/static/default-product.svg`;
  const writes = new SubscriptionWrites(repositories.subscriptions, links, defaultImage, outbox, reminders, clock);
  const sweep = new SubscriptionSweep(
    data,
    repositories.subscriptions,
    repositories.priceHistory,
    writes,
    reminders,
    outbox,
    clock,
  );
  return new SubscriptionService(
    repositories.subscriptions,
    repositories.priceHistory,
    writes,
    sweep,
    links,
    () => createLoaders(repositories),
    households,
    clock,
  );
}
