import type { MigrationObject, MikroORM } from '@mikro-orm/core';
import type { Migrator } from '@mikro-orm/migrations';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

/** The table where the migrator records the migrations it applied (its default name). */
export const APPLIED_MIGRATIONS = 'mikro_orm_migrations';

/**
 * Committed migrations, oldest first: each is the class of that name in the file of that name. The classes,
 * and the migrator they extend, load only when some are not yet applied (see migrate()).
 */
export const MIGRATION_NAMES: readonly string[] = [
  'Migration20261122130900_foundation',
  'Migration20261122131000_reference_data',
  'Migration20261122140000_inbound_idempotency',
  'Migration20261122150000_reminders',
  'Migration20261122160000_list_order_index',
  'Migration20261123100000_original_codes',
  'Migration20261123110000_find_or_create_keys',
  'Migration20261123120000_idempotency_fingerprint',
  'Migration20261123130000_drop_duplicate_columns',
  'Migration20261123140000_next_payment_date',
  'Migration20261124090000_expect_rows',
  'Migration20261124110000_payment_count_function',
  'Migration20261124130000_data_versions',
  'Migration20261124171348_calendar_feeds',
  'Migration20261125030352_notification_targets',
  'Migration20261125034419_rates_refreshes',
  'Migration20261125040538_contract_notice',
  'Migration20261125085540_ledger_and_budgets',
  'Migration20261125101146_households',
  'Migration20261125103222_budget_warnings',
  'Migration20261125160000_webhook_payload_text',
  'Migration20261126090000_member_data_versions',
  'Migration20261126120000_mask_notification_secrets',
  'Migration20261126140000_statement_proposals',
  'Migration20261127090000_live_notifications',
  'Migration20261127100000_password_resets',
  'Migration20261127110000_two_factor',
  'Migration20261127120000_token_kinds',
  'Migration20261127130000_admin',
  'Migration20261127140000_single_sign_on',
  'Migration20261127150000_week_start',
  'Migration20261127160000_theme',
  'Migration20261128090000_language',
  'Migration20261128100000_logos',
];

/**
 * Applies the committed migrations not yet applied, and names them. On a database that has them all (every start
 * but the first after an upgrade), the migrator is not even loaded: with umzug and its command line it is ~3 MB
 * of heap in every process.
 */
export async function migrate(
  orm: MikroORM<PostgreSqlDriver>,
  connection: { query(sql: string): Promise<{ rows: Array<Record<string, unknown>> }> },
): Promise<string[]> {
  const [{ found }] = (await connection.query(`select to_regclass('${APPLIED_MIGRATIONS}') is not null as "found"`))
    .rows;
  const applied = new Set(
    found ? (await connection.query(`select "name" from "${APPLIED_MIGRATIONS}"`)).rows.map((row) => row.name) : [],
  );
  if (MIGRATION_NAMES.every((name) => applied.has(name))) return [];
  return (await committedMigrator(orm).up()).map((migration) => migration.name);
}

/** The migrator over the committed migrations (it and their classes load here). */
export function committedMigrator(orm: MikroORM<PostgreSqlDriver>): Migrator {
  const migrations: MigrationObject[] = MIGRATION_NAMES.map((name) => ({
    name,
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- by name, and only when some are pending
    class: (require(`./${name}`) as Record<string, MigrationObject['class']>)[name],
  }));
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList: migrations });
  const { Migrator } = require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations');
  return new Migrator(orm.em);
}
