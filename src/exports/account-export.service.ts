import type { AlertService } from '../alerts/alert.service';
import type { AuthService } from '../auth/auth.service';
import type { Caller } from '../platform/caller';
import type { OwnedNamesService } from '../organizing/owned-names.service';
import type { Folder } from '../organizing/folder.entity';
import type { PaymentMode } from '../organizing/payment-mode.entity';
import type { Tag } from '../organizing/tag.entity';
import type { ProductCategory } from '../catalogue/product-category.entity';
import type { SettingsService } from '../settings/settings.service';
import { presentSubscription } from '../subscriptions/record-shape';
import type { SubscriptionService } from '../subscriptions/subscription.service';
import type { WebhookEndpointService } from '../webhooks/endpoint.service';

/** The name and version of the account export's format (see the README); an import checks both. */
export const ACCOUNT_EXPORT_FORMAT = { format: 'subledger-account', version: 1 } as const;

/** The services an account's parts are read through. */
export interface AccountSources {
  auth: AuthService;
  settings: SettingsService;
  subscriptions: SubscriptionService;
  folders: OwnedNamesService<Folder>;
  tags: OwnedNamesService<Tag>;
  paymentModes: OwnedNamesService<PaymentMode>;
  categories: OwnedNamesService<ProductCategory>;
  alerts: AlertService;
  endpoints: WebhookEndpointService;
}

/**
 * A whole account as one document: the profile, settings, the user's own folders, tags, payment methods,
 * categories and alert definitions, webhook endpoints without their secrets, and every live record (drafts,
 * ended records and add-ons included) in the REST record shape with its tag names and alert definitions.
 * Ids are the account's own, so records' links can be followed within the document.
 */
export class AccountExportService {
  constructor(
    private readonly deps: AccountSources,
    private readonly baseUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Where the downloads are (GET with a Bearer token). */
  links(): { subscriptionsCsv: string; accountJson: string } {
    return { subscriptionsCsv: `${this.baseUrl}/export/subscriptions.csv`, accountJson: `${this.baseUrl}/export/account.json` };
  }

  async account(caller: Caller) {
    const { auth, settings, subscriptions, folders, tags, paymentModes, categories, alerts, endpoints } = this.deps;
    const [user, extension, records, folderRows, tagRows, modeRows, categoryRows, alertRows, endpointRows] = await Promise.all([
      auth.me(caller),
      settings.get(caller),
      subscriptions.all(caller),
      folders.list(caller),
      tags.list(caller),
      paymentModes.list(caller),
      categories.list(caller),
      alerts.list(caller, { start: 0, length: 100_000, sort: [{ field: 'id', direction: 'asc' }] }),
      endpoints.list(caller),
    ]);
    return {
      ...ACCOUNT_EXPORT_FORMAT,
      exportedAt: this.clock().toISOString(),
      profile: { name: user.name, email: user.email, baseCurrency: user.baseCurrency, timezone: user.timezone },
      settings: {
        autoDetectSubscriptions: extension.autoDetectSubscriptions,
        browserNotifications: extension.browserNotifications,
        notifyBefore: extension.notifyBefore,
      },
      folders: folderRows.map((folder) => ({ id: folder.id, name: folder.name, color: folder.color ?? null, isDefault: folder.isDefault === 1 })),
      tags: tagRows.map((tag) => ({ id: tag.id, name: tag.name })),
      paymentModes: modeRows.map((mode) => ({ id: mode.id, name: mode.name })),
      // The global categories and the system alert are the server's, not the account's.
      categories: categoryRows.filter((category) => category.user === caller.userId).map((category) => ({ id: category.id, name: category.name })),
      alerts: alertRows
        .filter((alert) => alert.user === caller.userId)
        .map((alert) => ({
          id: alert.id,
          name: alert.alertName,
          timePeriod: alert.timePeriod,
          timeCycle: alert.timeCycle ?? null,
          time: alert.time,
          timezone: alert.timezone,
          condition: alert.alertCondition,
          channel: alert.alertType,
          contact: alert.alertContact ?? null,
          subjects: alert.alertSubsType,
        })),
      webhookEndpoints: endpointRows.map((endpoint) => ({ id: endpoint.id, url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled })),
      // Beside the REST record: its tags, all its alerts and the contract's notice (fields the REST shape has not).
      subscriptions: records.map(({ record, tags: names, alertIds }) => ({
        ...presentSubscription(record),
        tags: names,
        alert_ids: alertIds,
        contract_notice_days: record.contract_notice_days,
      })),
    };
  }
}

export type AccountExport = Awaited<ReturnType<AccountExportService['account']>>;
