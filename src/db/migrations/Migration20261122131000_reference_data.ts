import { Migration } from '@mikro-orm/migrations';

import { SEED_CATEGORIES } from '../../catalogue/seed/categories';
import { SEED_PRODUCTS } from '../../catalogue/seed/products';
import { RATES_AS_OF, SEED_RATES } from '../../currency/seed-rates';

/** Reference data every installation starts with: the default alert, categories, catalogue, rates. */
export class Migration20261122131000_reference_data extends Migration {
  override async up(): Promise<void> {
    const knex = this.getKnex();
    this.addSql(
      knex('alerts').insert({
        id: 1,
        user_id: null,
        is_default: 1,
        alert_name: 'Default alert',
        time_period: 3,
        time_cycle: 1,
        time: '09:00:00',
        alert_condition: 1,
        alert_contact: null,
        alert_type: 4,
        timezone: 'UTC',
        alert_subs_type: 3,
      }),
    );
    this.addSql(knex('product_categories').insert(SEED_CATEGORIES.map(([id, name]) => ({ id, name, user_id: null }))));
    this.addSql(
      knex('products').insert(
        SEED_PRODUCTS.map((product) => ({
          owner_id: null,
          category_id: product.categoryId,
          product_name: product.name,
          brandname: product.brand,
          description: `${product.name} by ${product.brand}`,
          url: `https://${product.domain}/`,
          image: `https://${product.domain}/favicon.ico`,
          favicon: `https://${product.domain}/favicon.ico`,
          currency_code: product.currency,
          price1_name: product.name,
          price1_value: product.price,
          refund_days: product.refundDays,
          billing_frequency: 1,
          billing_cycle: product.cycle,
        })),
      ),
    );
    this.addSql(
      knex('exchange_rates').insert(
        Object.entries(SEED_RATES).map(([currency, perUsd]) => ({ currency, per_usd: perUsd, as_of: RATES_AS_OF })),
      ),
    );
    // Rows above carry explicit ids: move the sequences past them.
    for (const table of ['alerts', 'product_categories']) {
      this.addSql(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from "${table}"));`);
    }
  }

  override async down(): Promise<void> {
    this.addSql('delete from "exchange_rates";');
    this.addSql('delete from "products" where "owner_id" is null;');
    this.addSql('delete from "product_categories" where "user_id" is null;');
    this.addSql('delete from "alerts" where "id" = 1;');
  }
}
