import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { definedOnly } from '../platform/objects';
import type { ExtensionSettings } from './extension-settings.entity';
import type { ExtensionSettingsRepository } from './extension-settings.repository';

export interface ExtensionSettingsChange {
  autoDetectSubscriptions?: number;
  browserNotifications?: number;
  notifyBefore?: number;
}

export const MAX_NOTIFY_BEFORE = 365;

export function validateSettingsChange(change: ExtensionSettingsChange): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, value] of [
    ['auto_detect_subscriptions', change.autoDetectSubscriptions],
    ['browser_notifications', change.browserNotifications],
  ] as const) {
    if (value !== undefined && value !== 0 && value !== 1) errors[field] = [`The ${field} must be 0 or 1.`];
  }
  const days = change.notifyBefore;
  if (days !== undefined && (!Number.isInteger(days) || days < 0 || days > MAX_NOTIFY_BEFORE)) {
    errors.notify_before = [`The notify_before must be a whole number from 0 to ${MAX_NOTIFY_BEFORE}.`];
  }
  if (Object.keys(change).length === 0)
    errors.settings = ['Send at least one of auto_detect_subscriptions, browser_notifications, notify_before.'];
  return errors;
}

/** The browser extension's settings, one row per user, made with the defaults on first read. */
export class SettingsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly settings: ExtensionSettingsRepository,
  ) {}

  async get(caller: Caller): Promise<ExtensionSettings> {
    return this.settings.ofUser(caller.userId);
  }

  /**
   * Changes the caller's settings: the known fields of `change` only (never its owner, whatever else the
   * object holds), in the caller's transaction when there is one (an import's, which a later refusal undoes).
   */
  async update(caller: Caller, change: ExtensionSettingsChange): Promise<ExtensionSettings> {
    const known = definedOnly({
      autoDetectSubscriptions: change.autoDetectSubscriptions,
      browserNotifications: change.browserNotifications,
      notifyBefore: change.notifyBefore,
    });
    refuseFieldErrors(validateSettingsChange(known));
    return this.transactions.transaction(async () => {
      const settings = await this.settings.ofUser(caller.userId);
      Object.assign(settings, known);
      await this.settings.save(settings);
      return settings;
    });
  }
}
