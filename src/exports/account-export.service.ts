import type { AlertService } from '../alerts/alert.service';
import type { AuthService } from '../auth/auth.service';
import type { ProductCategory } from '../catalogue/product-category.entity';
import type { SplitMode } from '../households/household.entity';
import type { HouseholdService } from '../households/household.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { Folder } from '../organizing/folder.entity';
import type { OwnedNamesService } from '../organizing/owned-names.service';
import type { PaymentMode } from '../organizing/payment-mode.entity';
import type { Tag } from '../organizing/tag.entity';
import type { Caller } from '../platform/caller';
import type { SettingsService } from '../settings/settings.service';
import type { SpendingService } from '../spending/spending.service';
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
  ledger: LedgerService;
  spending: SpendingService;
  households: HouseholdService;
}

/**
 * A whole account as one document: the profile, settings, the user's own folders, tags, payment methods,
 * categories and alert definitions, webhook endpoints without their secrets, budgets, the household the user
 * owns (its members by name), and every live record (drafts, ended records and add-ons included) in the REST
 * record shape with its tag names, alert definitions, price history, paid and skipped payments and sharing.
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
    return {
      subscriptionsCsv: `${this.baseUrl}/export/subscriptions.csv`,
      accountJson: `${this.baseUrl}/export/account.json`,
    };
  }

  async account(caller: Caller) {
    const {
      auth,
      settings,
      subscriptions,
      folders,
      tags,
      paymentModes,
      categories,
      alerts,
      endpoints,
      ledger,
      spending,
      households,
    } = this.deps;
    const [
      user,
      extension,
      records,
      folderRows,
      tagRows,
      modeRows,
      categoryRows,
      alertRows,
      endpointRows,
      steps,
      payments,
      budgets,
      memberships,
    ] = await Promise.all([
      auth.me(caller),
      settings.get(caller),
      subscriptions.all(caller),
      folders.list(caller),
      tags.list(caller),
      paymentModes.list(caller),
      categories.list(caller),
      alerts.list(caller, { start: 0, length: 100_000, sort: [{ field: 'id', direction: 'asc' }] }),
      endpoints.list(caller),
      subscriptions.priceSteps(caller),
      ledger.settled(caller),
      spending.budgets(caller),
      households.households(caller),
    ]);
    const own = memberships.find(({ household }) => household.owner_id === caller.userId) ?? null;
    const sharing = own ? await households.sharingOf(records.map(({ record }) => record.id)) : [];
    return {
      ...ACCOUNT_EXPORT_FORMAT,
      exportedAt: this.clock().toISOString(),
      profile: { name: user.name, email: user.email, baseCurrency: user.baseCurrency, timezone: user.timezone },
      settings: {
        autoDetectSubscriptions: extension.autoDetectSubscriptions,
        browserNotifications: extension.browserNotifications,
        notifyBefore: extension.notifyBefore,
      },
      folders: folderRows.map((folder) => ({
        id: folder.id,
        name: folder.name,
        color: folder.color ?? null,
        isDefault: folder.isDefault === 1,
      })),
      tags: tagRows.map((tag) => ({ id: tag.id, name: tag.name })),
      paymentModes: modeRows.map((mode) => ({ id: mode.id, name: mode.name })),
      // The global categories and the system alert are the server's, not the account's.
      categories: categoryRows
        .filter((category) => category.user === caller.userId)
        .map((category) => ({ id: category.id, name: category.name })),
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
      webhookEndpoints: endpointRows.map((endpoint) => ({
        id: endpoint.id,
        url: endpoint.url,
        events: endpoint.events,
        enabled: endpoint.enabled,
      })),
      budgets: budgets.map((budget) => ({
        categoryId: budget.category_id,
        amount: budget.amount,
        alertId: budget.alert_id,
      })),
      household: own && {
        name: own.household.name,
        members: own.members.map((member) => ({
          id: member.id,
          name: member.name,
          isOwner: member.user_id === caller.userId,
          canEdit: member.can_edit,
        })),
      },
      // Beside the REST record: its tags, all its alerts and the contract's notice (fields the REST shape has not).
      subscriptions: records.map(({ record, tags: names, alertIds }) => ({
        ...presentSubscription(record),
        tags: names,
        alert_ids: alertIds,
        contract_notice_days: record.contract_notice_days,
        price_history: steps
          .filter((step) => step.subscription_id === record.id)
          .map(({ effective_from, price }) => ({ effective_from, price })),
        payments: payments
          .filter((entry) => entry.subscription_id === record.id)
          .map((entry) => ({
            due_date: entry.due_date,
            expected_amount: entry.expected_amount,
            currency: entry.currency,
            status: entry.status as 'paid' | 'skipped',
            paid_amount: entry.paid_amount,
            paid_on: entry.paid_on,
            note: entry.note,
          })),
        sharing: sharingOf(sharing.find((row) => row.subscription_id === record.id)),
      })),
    };
  }
}

export type AccountExport = Awaited<ReturnType<AccountExportService['account']>>;

/** A record's payer and split as the export writes it: the members' ids, and each value (none for equal shares). */
function sharingOf(row: Awaited<ReturnType<HouseholdService['sharingOf']>>[number] | undefined) {
  if (!row) return null;
  return {
    payer_member_id: row.payer_id,
    mode: row.split_mode as SplitMode,
    shares: row.splits.map((split) => ({
      member_id: split.member_id,
      value: row.split_mode === 'equal' ? null : split.weight,
    })),
  };
}
