import { personNameProblem } from '../auth/person-name';
import type { User } from '../auth/user.entity';
import type { UserRepository } from '../auth/user.repository';
import type { ExchangeRateRepository } from '../currency/exchange-rate.repository';
import { unknownCurrencyProblem } from '../currency/known-currency';
import type { Caller } from '../platform/caller';
import { isTimeZone } from '../platform/dates';
import type { Transactions } from '../platform/db/data-source';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { ReminderScheduling } from '../platform/reminder-scheduling';
import type { SubscriptionRepository } from '../subscriptions/subscription.repository';

export interface ProfileChange {
  name?: string;
  baseCurrency?: string;
  timezone?: string;
  /** An ISO weekday number: 1, 6 or 7 (GraphQL's WeekStart). */
  weekStart?: number;
  /** 'system', 'light' or 'dark' (GraphQL's Theme). */
  theme?: string;
  /** 'browser', 'en', 'de', 'fr' or 'es' (GraphQL's Language). */
  language?: string;
}

/** The caller's name, base currency (totals, base_value) and timezone. */
export class ProfileService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: UserRepository,
    private readonly rates: ExchangeRateRepository,
    private readonly subscriptions: SubscriptionRepository,
    private readonly reminders: ReminderScheduling,
  ) {}

  /**
   * Records that took the user's timezone (no zone of their own given) follow a new one, and their reminders
   * are rescheduled with them.
   */
  async update(caller: Caller, change: ProfileChange): Promise<User> {
    return this.transactions.transaction(async () => {
      const user = await this.users.existing(caller.userId);
      const problems: FieldErrors = {};
      const currencyProblem =
        change.baseCurrency === undefined ? null : await unknownCurrencyProblem(this.rates, change.baseCurrency);
      if (currencyProblem) problems.baseCurrency = [currencyProblem];
      if (change.timezone !== undefined && !isTimeZone(change.timezone))
        problems.timezone = ['The timezone must be an IANA zone name.'];
      const nameProblem = change.name === undefined ? null : personNameProblem(change.name);
      if (nameProblem) problems.name = [nameProblem];
      refuseFieldErrors(problems);
      if (change.name !== undefined) user.name = change.name.trim();
      if (change.baseCurrency !== undefined) user.baseCurrency = change.baseCurrency;
      if (change.weekStart !== undefined) user.weekStart = change.weekStart;
      if (change.theme !== undefined) user.theme = change.theme;
      if (change.language !== undefined) user.language = change.language;
      if (change.timezone !== undefined && change.timezone !== user.timezone) {
        const moved = await this.subscriptions.moveZone(caller.userId, user.timezone, change.timezone);
        user.timezone = change.timezone;
        await this.reminders.reschedule(moved);
      }
      await this.users.save(user);
      return user;
    });
  }
}
