import { Router } from 'express';

import type { Config } from '../../src/platform/config';
import { definedOnly } from '../../src/platform/objects';
import type { Services } from '../../src/runtime/services';
import type { ExtensionSettings } from '../../src/settings/extension-settings.entity';
import { type ExtensionSettingsChange, validateSettingsChange } from '../../src/settings/settings.service';
import { callerOf } from '../auth';
import { parseBody } from '../body';
import { FormReader } from '../form';
import { presentUser } from '../presenters/user.presenter';

// notify_before is the spec's name, notify_before_days the original's: both are answered and accepted.
const presentSettings = (settings: ExtensionSettings) => ({
  auto_detect_subscriptions: settings.autoDetectSubscriptions,
  browser_notifications: settings.browserNotifications,
  notify_before: settings.notifyBefore,
  notify_before_days: settings.notifyBefore,
});

/** Operations 23 and 24. */
export function settingsRoutes(services: Services, config: Pick<Config, 'baseUrl'>): Router {
  const router = Router();

  router.get('/settings/extension', async (req, res) => {
    const caller = callerOf(req);
    const [settings, user] = await Promise.all([services.settings.get(caller), services.auth.me(caller)]);
    res.json({ extension: presentSettings(settings), user: presentUser(user, config.baseUrl) });
  });

  router.put('/settings/extension', parseBody, async (req, res) => {
    const form = new FormReader(req.body);
    const change: ExtensionSettingsChange = definedOnly({
      autoDetectSubscriptions: form.integer('auto_detect_subscriptions'),
      browserNotifications: form.integer('browser_notifications'),
      notifyBefore: form.integer('notify_before') ?? form.integer('notify_before_days'),
    });
    form.merge(validateSettingsChange(change));
    form.done();
    await services.settings.update(callerOf(req), change);
    res.json({ status: true, message: 'Settings updated successfully' });
  });

  return router;
}
