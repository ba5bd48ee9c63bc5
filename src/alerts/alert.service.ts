import { LockMode, type MikroORM } from '@mikro-orm/core';
import type { EntityManager, PostgreSqlDriver } from '@mikro-orm/postgresql';

import { type Caller, globalOrOwn } from '../platform/caller';
import { AppError, refuseFieldErrors } from '../platform/errors';
import { definedOnly, entityOrder, escapeLike, type SortKey } from '../platform/objects';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import { Alert } from './alert.entity';
import { DEFAULT_ALERT } from './alert.input';
import { type AlertInput, normaliseTime, validateAlertInput } from './alert.input';

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
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly reminders: ReminderScheduling,
  ) {}

  async list(caller: Caller, query: AlertListQuery): Promise<Alert[]> {
    const q = query.q?.trim();
    return this.orm.em
      .fork()
      .find(
        Alert,
        { ...globalOrOwn(caller.userId), ...(q ? { alertName: { $ilike: `%${escapeLike(q)}%` } } : {}) },
        { orderBy: entityOrder(query.sort, SORT_PROPERTIES), offset: query.start, limit: query.length },
      );
  }

  async get(caller: Caller, id: number): Promise<Alert> {
    const alert = await this.orm.em.fork().findOne(Alert, { id, ...globalOrOwn(caller.userId) });
    if (!alert) throw AppError.notFound('Alert');
    return alert;
  }

  async create(caller: Caller, input: AlertInput): Promise<Alert> {
    assertValid(input);
    // In the caller's transaction when there is one (an import's).
    return this.orm.em.transactional(async (em) => {
      const alert = em.create(Alert, {
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
      });
      await em.flush();
      return alert;
    });
  }

  async update(caller: Caller, id: number, input: Partial<AlertInput>): Promise<Alert> {
    assertValid(input);
    return this.orm.em.transactional(async (em) => {
      const alert = await this.ownedForWrite(em, caller, id);
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
      await em.flush();
      // Its reminders move with the definition.
      await this.reminders.reschedule(em, await this.reminders.recordsUsingAlert(em, id));
      return alert;
    });
  }

  /**
   * Refused while a record (deleted ones included: they can be restored) uses the alert, as the original
   * does. The row is locked first, so a record linked meanwhile waits and then finds it gone.
   */
  async remove(caller: Caller, id: number): Promise<void> {
    await this.orm.em.transactional(async (em) => {
      const alert = await this.ownedForWrite(em, caller, id, true);
      if ((await this.reminders.recordsUsingAlert(em, id)).length > 0)
        throw new AppError('IN_USE', 'This alert profile is currently being used.');
      await em.remove(alert).flush();
    });
  }

  private async ownedForWrite(em: EntityManager, caller: Caller, id: number, lock = false): Promise<Alert> {
    if (id === DEFAULT_ALERT) throw new AppError('CONFLICT', 'The default alert cannot be changed or deleted');
    const alert = await em.findOne(
      Alert,
      { id, user: caller.userId },
      lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
    );
    if (!alert) throw AppError.notFound('Alert');
    return alert;
  }
}

function assertValid(input: Partial<AlertInput>): void {
  refuseFieldErrors(validateAlertInput(input));
}
