import { Alert } from '../alerts/alert.entity';
import { AccessToken } from '../auth/access-token.entity';
import { OidcIdentity, OidcLogin, SignInCode } from '../auth/oidc.entity';
import { PasswordReset } from '../auth/password-reset.entity';
import { User } from '../auth/user.entity';
import { CalendarFeed } from '../calendar-feeds/calendar-feed.entity';
import { Product } from '../catalogue/product.entity';
import { ProductCategory } from '../catalogue/product-category.entity';
import { ExchangeRate } from '../currency/exchange-rate.entity';
import { RatesRefresh } from '../currency/rates-refresh.entity';
import { Household, HouseholdMember, SubscriptionShare, SubscriptionSplit } from '../households/household.entity';
import { PaymentEntry } from '../ledger/payment-entry.entity';
import { Logo, LogoFetch } from '../logos/logo.entity';
import { AlertTarget, NotificationTarget } from '../notifications/notification-target.entity';
import { Folder } from '../organizing/folder.entity';
import { PaymentMode } from '../organizing/payment-mode.entity';
import { Tag } from '../organizing/tag.entity';
import { BaseEntity } from '../platform/db/base.entity';
import { ExtensionSettings } from '../settings/extension-settings.entity';
import { Budget } from '../spending/budget.entity';
import { PriceChange } from '../subscriptions/price-change.entity';
import { Subscription } from '../subscriptions/subscription.entity';
import { WebhookDelivery } from '../webhooks/delivery.entity';
import { DeliveryAttempt } from '../webhooks/delivery-attempt.entity';
import { WebhookEndpoint } from '../webhooks/endpoint.entity';
import { WebhookEvent } from '../webhooks/event.entity';
import { InboundWebhookToken } from '../webhooks/inbound-token.entity';

/** Every entity, listed explicitly: no folder scanning, so the same list works compiled and under jest. */
export const ENTITIES = [
  BaseEntity,
  User,
  AccessToken,
  Folder,
  Tag,
  PaymentMode,
  ProductCategory,
  Product,
  Logo,
  LogoFetch,
  Alert,
  Subscription,
  ExtensionSettings,
  ExchangeRate,
  InboundWebhookToken,
  WebhookEndpoint,
  WebhookEvent,
  WebhookDelivery,
  DeliveryAttempt,
  CalendarFeed,
  NotificationTarget,
  AlertTarget,
  RatesRefresh,
  PriceChange,
  PaymentEntry,
  Budget,
  Household,
  HouseholdMember,
  SubscriptionShare,
  SubscriptionSplit,
  OidcLogin,
  OidcIdentity,
  SignInCode,
  PasswordReset,
];
