import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { ExtensionSettings } from './extension-settings.entity';

/** The extension_settings table: one row per user, made with the defaults on first read. */
export class ExtensionSettingsRepository {
  constructor(private readonly db: DataSource) {}

  /** The user's settings, their row made first unless it exists (two first reads at once do not both insert). */
  async ofUser(userId: number): Promise<ExtensionSettings> {
    const em = this.db.em();
    await this.db.run(sql`insert into "extension_settings" ("user_id") values (${userId}) on conflict do nothing`);
    return em.findOneOrFail(ExtensionSettings, { user: userId });
  }

  /** Writes the changes of settings read in the same transaction. */
  async save(settings: ExtensionSettings): Promise<void> {
    await this.db.save(settings);
  }
}
