import Decimal from 'decimal.js';

import { ALL_CHANNELS, channelsOf } from '../alerts/alert.input';
import type { AlertRepository } from '../alerts/alert.repository';
import { budgetMessage, type BudgetWarningFacts } from '../notifications/notification-message';
import type { NotificationTargetRepository } from '../notifications/notification-target.repository';
import type { Transactions } from '../platform/db/data-source';
import type { Logger } from '../platform/logger';
import { toMoneyString } from '../platform/money';
import type { ReminderMailer } from '../reminders/reminder-mail';
import { targetDeliveriesPart } from '../webhooks/delivery.sql';
import { eventsPart, type OutboxSignal } from '../webhooks/outbox';
import { NO_BUDGETS, summarizeSpending } from './spending';
import type { BudgetToWarn, SpendingRepository } from './spending.repository';

/**
 * Warns through a budget's alert definition (its channels: webhook endpoints that list budget.exceeded, its
 * notification targets, e-mail) when next month's planned total exceeds the budget: once per budget and month,
 * claimed in the transaction that writes the warning's event.
 */
export class BudgetWarningService {
  constructor(
    /**
     * Units of work, and the statement target of the alert, notification target and outbox calls in them
     * (those take it still).
     */
    private readonly transactions: Transactions,
    private readonly repository: SpendingRepository,
    private readonly alerts: AlertRepository,
    private readonly targets: NotificationTargetRepository,
    private readonly outbox: OutboxSignal,
    private readonly mailer: ReminderMailer | null,
    private readonly logger: Logger,
    private readonly baseUrl: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The sweep's part: budgets not warned of for next month are checked (one spending read per owner); answers how many warned. */
  async sweep(limit = 200): Promise<number> {
    const now = this.clock();
    const due = await this.repository.budgetsToWarn(now, limit);
    let warned = 0;
    for (const userId of new Set(due.map((budget) => budget.user_id))) {
      const budgets = due.filter((budget) => budget.user_id === userId);
      const { month_from: from, month_to: to, base_currency: baseCurrency } = budgets[0];
      const sums = await this.repository.plannedSums({ kind: 'own', userId }, userId, 'CATEGORY', from, to);
      const summary = summarizeSpending({
        sums,
        paid: [],
        budgets: NO_BUDGETS,
        baseCurrency,
        from,
        to,
        grouping: 'CATEGORY',
      });
      for (const budget of budgets) {
        const planned =
          budget.category_id === null
            ? summary.periodTotal
            : (summary.groups.find((group) => group.key === String(budget.category_id))?.periodTotal ?? '0.00');
        if (new Decimal(planned).greaterThan(budget.amount) && (await this.warn(budget, planned))) warned += 1;
      }
    }
    if (due.length > 0) {
      await this.repository.checked(
        due.map((budget) => budget.id),
        now,
      );
    }
    return warned;
  }

  /** Claims the budget's month and writes its warning; false when another sweep claimed it first. */
  private async warn(budget: BudgetToWarn, planned: string): Promise<boolean> {
    const facts: BudgetWarningFacts = {
      budget_id: budget.id,
      category_id: budget.category_id,
      category_name: budget.category_name,
      month: budget.month,
      amount: toMoneyString(budget.amount),
      planned,
      over_by: new Decimal(planned).minus(budget.amount).toFixed(2),
      currency: budget.base_currency,
    };
    const message = budgetMessage(`budget_${budget.id}_${budget.month}`, facts, this.baseUrl);
    const mailTo = await this.transactions.transaction(async () => {
      if (!(await this.repository.claimWarning(budget.id, budget.month))) return undefined;
      const alert = await this.alerts.contact(budget.alert_id!, budget.user_id);
      if (!alert) return null;
      const channels = channelsOf(alert.alert_type);
      const targetIds = await this.targets.forAlert(
        budget.user_id,
        budget.alert_id!,
        alert.alert_type === ALL_CHANNELS,
      );
      const toEndpoints = channels.includes('webhook');
      if (toEndpoints || targetIds.length > 0) {
        const events = [{ subscriptionId: null, payload: { ...facts } }];
        await this.transactions.runParts([
          eventsPart(budget.user_id, 'budget.exceeded', events, toEndpoints),
          ...(targetIds.length > 0 ? [targetDeliveriesPart(targetIds, message)] : []),
        ]);
      }
      return channels.includes('email') ? (alert.alert_contact ?? alert.email) : null;
    });
    if (mailTo === undefined) return false;
    this.outbox.notify();
    if (mailTo !== null && this.mailer) {
      try {
        await this.mailer.sendNotification([mailTo], message);
      } catch (error) {
        // The month is claimed: a failed e-mail is logged, like a reminder's, not sent again and again.
        this.logger.warn({ err: error }, 'budget warning e-mail failed');
      }
    }
    return true;
  }
}
