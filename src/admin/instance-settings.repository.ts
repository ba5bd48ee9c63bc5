import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** Settings of the whole instance an admin changes at run time, by name (the environment gives their defaults). */
export class InstanceSettingsRepository {
  constructor(private readonly db: DataSource) {}

  async get(name: string): Promise<string | null> {
    const row = await this.db.row<{ value: string }>(
      sql`select "value" from "instance_settings" where "name" = ${name}`,
    );
    return row?.value ?? null;
  }

  async set(name: string, value: string): Promise<void> {
    await this.db.run(
      sql`insert into "instance_settings" ("name", "value") values (${name}, ${value})
          on conflict ("name") do update set "value" = excluded."value", "updated_at" = now() at time zone 'utc'`,
    );
  }
}
