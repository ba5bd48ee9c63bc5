import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError, refuseFieldErrors } from '../platform/errors';
import { definedOnly, entityOrder, type SortKey } from '../platform/objects';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import type { Alert } from './alert.entity';
import { DEFAULT_ALERT } from './alert.input';
import { type AlertInput, normaliseTime, validateAlertInput } from './alert.input';
import type { AlertRepository } from './alert.repository';

export const ALERT_SORT_FIELDS = ['id', 'alert_name', 'is_default', 'time_period', 'created_at', 'updated_at'] as const;
export type AlertSortField = (typeof ALERT_SORT_FIELDS)[number];

export interface AlertListQuery {
  q?: string;
  start: number;
  length: number;
  sort: SortKey<AlertSortField>[];
}

const SORT_PROPERTIES: Record<AlertSortField, keyof Alert> = {
  id: 'id',
  alert_name: 'alertName',
  is_default: 'isDefault',
  time_period: 'timePeriod',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
};

/** The caller's alert definitions, plus the system default (id 1) that every user sees and no one changes. */
export class AlertService {
  constructor(
    private readonly transactions: Transactions,
    private readonly alerts: AlertRepository,
    private readonly reminders: ReminderScheduling,
  ) {}

  async list(caller: Caller, query: AlertListQuery): Promise<Alert[]> {
    return this.alerts.page(caller.userId, {
      q: query.q?.trim(),
      orderBy: entityOrder(query.sort, SORT_PROPERTIES),
      offset: query.start,
      limit: query.length,
    });
  }

  async get(caller: Caller, id: number): Promise<Alert> {
    const alert = await this.alerts.visible(caller.userId, id);
    if (!alert) throw AppError.notFound('Alert');
    return alert;
  }

  async create(caller: Caller, input: AlertInput): Promise<Alert> {
    assertValid(input);
    // In the caller's transaction when there is one (an import's).
    return this.transactions.transaction(() =>
      this.alerts.create({
        user: caller.userId,
        isDefault: 0,
        alertName: input.alertName.trim(),
        timePeriod: input.timePeriod,
        timeCycle: input.timeCycle ?? null,
        time: normaliseTime(input.time),
        alertCondition: input.alertCondition,
        alertContact: input.alertContact ?? null,
        alertType: input.alertType,
        timezone: input.timezone,
        alertSubsType: input.alertSubsType,
      }),
    );
  }

  async update(caller: Caller, id: number, input: Partial<AlertInput>): Promise<Alert> {
    assertValid(input);
    return this.transactions.transaction(async () => {
      const alert = await this.ownedForWrite(caller, id);
      const changes: Partial<Alert> = {
        alertName: input.alertName?.trim(),
        timePeriod: input.timePeriod,
        timeCycle: input.timeCycle,
        time: input.time === undefined ? undefined : normaliseTime(input.time),
        alertCondition: input.alertCondition,
        alertContact: input.alertContact,
        alertType: input.alertType,
        timezone: input.timezone,
        alertSubsType: input.alertSubsType,
      };
      Object.assign(alert, definedOnly(changes));
      await this.alerts.save(alert);
      // Its reminders move with the definition.
      await this.reminders.reschedule(await this.reminders.recordsUsingAlert(id));
      return alert;
    });
  }

  /**
   * Refused while a record (deleted ones included: they can be restored) uses the alert, as the original
   * does. The row is locked first, so a record linked meanwhile waits and then finds it gone.
   */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.transactions.transaction(async () => {
      const alert = await this.ownedForWrite(caller, id, true);
      if ((await this.reminders.recordsUsingAlert(id)).length > 0)
        throw new AppError('IN_USE', 'This alert profile is currently being used.');
      await this.alerts.remove(alert);
    });
  }

  private async ownedForWrite(caller: Caller, id: number, lock = false): Promise<Alert> {
    if (id === DEFAULT_ALERT) throw new AppError('CONFLICT', 'The default alert cannot be changed or deleted');
    const alert = await this.alerts.own(caller.userId, id, lock);
    if (!alert) throw AppError.notFound('Alert');
    return alert;
  }
}

function assertValid(input: Partial<AlertInput>): void {
  refuseFieldErrors(validateAlertInput(input));
}
