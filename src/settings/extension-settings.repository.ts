import type { EntityManager } from '@mikro-orm/postgresql';

import { run } from '../platform/db/statements';

/** The extension_settings statement beyond the unit of work's. */
export const extensionSettingsRepository = {
  /** Makes the user's settings row with its defaults unless it exists (two first reads at once do not both insert). */
  async ensure(em: EntityManager, userId: number): Promise<void> {
    await run(em, 'insert into "extension_settings" ("user_id") values (?) on conflict do nothing', [userId]);
  },
};
