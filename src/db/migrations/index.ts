import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122130900_foundation } from './Migration20261122130900_foundation';
import { Migration20261122131000_reference_data } from './Migration20261122131000_reference_data';
import { Migration20261122140000_inbound_idempotency } from './Migration20261122140000_inbound_idempotency';
import { Migration20261122150000_reminders } from './Migration20261122150000_reminders';
import { Migration20261122160000_list_order_index } from './Migration20261122160000_list_order_index';
import { Migration20261123100000_original_codes } from './Migration20261123100000_original_codes';
import { Migration20261123110000_find_or_create_keys } from './Migration20261123110000_find_or_create_keys';
import { Migration20261123120000_idempotency_fingerprint } from './Migration20261123120000_idempotency_fingerprint';
import { Migration20261123130000_drop_duplicate_columns } from './Migration20261123130000_drop_duplicate_columns';
import { Migration20261123140000_next_payment_date } from './Migration20261123140000_next_payment_date';
import { Migration20261124090000_expect_rows } from './Migration20261124090000_expect_rows';
import { Migration20261124110000_payment_count_function } from './Migration20261124110000_payment_count_function';
import { Migration20261124130000_data_versions } from './Migration20261124130000_data_versions';
import { Migration20261124171348_calendar_feeds } from './Migration20261124171348_calendar_feeds';
import { Migration20261125030352_notification_targets } from './Migration20261125030352_notification_targets';
import { Migration20261125034419_rates_refreshes } from './Migration20261125034419_rates_refreshes';
import { Migration20261125040538_contract_notice } from './Migration20261125040538_contract_notice';
import { Migration20261125101146_households } from './Migration20261125101146_households';
import { Migration20261125103222_budget_warnings } from './Migration20261125103222_budget_warnings';
import { Migration20261125160000_webhook_payload_text } from './Migration20261125160000_webhook_payload_text';
import { Migration20261125085540_ledger_and_budgets } from './Migration20261125085540_ledger_and_budgets';

/** Committed migrations, oldest first. The migrator runs them on start. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122130900_foundation', class: Migration20261122130900_foundation },
  { name: 'Migration20261122131000_reference_data', class: Migration20261122131000_reference_data },
  { name: 'Migration20261122140000_inbound_idempotency', class: Migration20261122140000_inbound_idempotency },
  { name: 'Migration20261122150000_reminders', class: Migration20261122150000_reminders },
  { name: 'Migration20261122160000_list_order_index', class: Migration20261122160000_list_order_index },
  { name: 'Migration20261123100000_original_codes', class: Migration20261123100000_original_codes },
  { name: 'Migration20261123110000_find_or_create_keys', class: Migration20261123110000_find_or_create_keys },
  { name: 'Migration20261123120000_idempotency_fingerprint', class: Migration20261123120000_idempotency_fingerprint },
  { name: 'Migration20261123130000_drop_duplicate_columns', class: Migration20261123130000_drop_duplicate_columns },
  { name: 'Migration20261123140000_next_payment_date', class: Migration20261123140000_next_payment_date },
  { name: 'Migration20261124090000_expect_rows', class: Migration20261124090000_expect_rows },
  { name: 'Migration20261124110000_payment_count_function', class: Migration20261124110000_payment_count_function },
  { name: 'Migration20261124130000_data_versions', class: Migration20261124130000_data_versions },
  { name: 'Migration20261124171348_calendar_feeds', class: Migration20261124171348_calendar_feeds },
  { name: 'Migration20261125030352_notification_targets', class: Migration20261125030352_notification_targets },
  { name: 'Migration20261125034419_rates_refreshes', class: Migration20261125034419_rates_refreshes },
  { name: 'Migration20261125040538_contract_notice', class: Migration20261125040538_contract_notice },
  { name: 'Migration20261125085540_ledger_and_budgets', class: Migration20261125085540_ledger_and_budgets },
  { name: 'Migration20261125101146_households', class: Migration20261125101146_households },
  { name: 'Migration20261125103222_budget_warnings', class: Migration20261125103222_budget_warnings },
  { name: 'Migration20261125160000_webhook_payload_text', class: Migration20261125160000_webhook_payload_text },
];
