import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import { personNameProblem } from '../auth/person-name';
import { User } from '../auth/user.entity';
import { unknownCurrencyProblem } from '../currency/known-currency';
import type { Caller } from '../platform/caller';
import { isTimeZone } from '../platform/dates';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';

export interface ProfileChange {
  name?: string;
  baseCurrency?: string;
  timezone?: string;
}

/** The caller's name, base currency (totals, base_value) and timezone. */
export class ProfileService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly subscriptions: SubscriptionRepository,
    private readonly reminders: ReminderScheduling,
  ) {}

  /**
   * Records that took the user's timezone (no zone of their own given) follow a new one, and their reminders
   * are rescheduled with them.
   */
  async update(caller: Caller, change: ProfileChange): Promise<User> {
    return this.orm.em.transactional(async (em) => {
      const user = await em.findOneOrFail(User, caller.userId);
      const problems: FieldErrors = {};
      const currencyProblem =
        change.baseCurrency === undefined ? null : await unknownCurrencyProblem(em, change.baseCurrency);
      if (currencyProblem) problems.baseCurrency = [currencyProblem];
      if (change.timezone !== undefined && !isTimeZone(change.timezone))
        problems.timezone = ['The timezone must be an IANA zone name.'];
      const nameProblem = change.name === undefined ? null : personNameProblem(change.name);
      if (nameProblem) problems.name = [nameProblem];
      refuseFieldErrors(problems);
      if (change.name !== undefined) user.name = change.name.trim();
      if (change.baseCurrency !== undefined) user.baseCurrency = change.baseCurrency;
      if (change.timezone !== undefined && change.timezone !== user.timezone) {
        const moved = await this.subscriptions.moveZone(em, caller.userId, user.timezone, change.timezone);
        user.timezone = change.timezone;
        await this.reminders.reschedule(em, moved);
      }
      return user;
    });
  }
}
