import sql, { raw } from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';

export interface NamedRow {
  id: number;
  name: string;
}

/** What an import matches its rows' names against: the account's own rows, the global ones and the known currencies. */
export interface AccountNames {
  baseCurrency: string;
  folders: NamedRow[];
  paymentModes: NamedRow[];
  /** The user's categories and the global ones (`own` false). */
  categories: Array<NamedRow & { own: boolean }>;
  tags: NamedRow[];
  /** System alert definitions (global). */
  globalAlerts: number[];
  currencies: string[];
}

export interface ProductMatch {
  id: number;
  name: string;
  /** The catalogue's (false) or the user's private product (true). */
  own: boolean;
}

const named = (table: string, where: string) =>
  raw(
    `(select coalesce(jsonb_agg(jsonb_build_object('id', x."id", 'name', x."name") order by x."id"), '[]') from "${table}" x where ${where})`,
  );

const accountNames = (userId: number) => sql`
select u."base_currency" as "baseCurrency",
       ${named('folders', 'x."user_id" = u."id"')} as "folders",
       ${named('payment_modes', 'x."user_id" = u."id"')} as "paymentModes",
       ${named('tags', 'x."user_id" = u."id"')} as "tags",
       (select coalesce(jsonb_agg(jsonb_build_object('id', x."id", 'name', x."name", 'own', x."user_id" is not null) order by x."id"), '[]')
          from "product_categories" x where x."user_id" is null or x."user_id" = u."id") as "categories",
       array(select a."id" from "alerts" a where a."user_id" is null order by a."id") as "globalAlerts",
       array(select r."currency" from "exchange_rates" r order by r."currency") as "currencies"
  from "users" u where u."id" = ${userId}`;

/** The reads of an import: names across the account's tables, in one statement each; its writes go through the services. */
export class ImportRepository {
  constructor(private readonly db: DataSource) {}

  async accountNames(userId: number): Promise<AccountNames> {
    const [row] = await this.db.rows<AccountNames>(accountNames(userId));
    return row;
  }

  /**
   * Products the rows may mean: catalogue products of these ids, and catalogue or the user's private products
   * whose names equal these (compared lower-case).
   */
  products(userId: number, names: readonly string[], catalogueIds: readonly number[]): Promise<ProductMatch[]> {
    const lowerNames = JSON.stringify(names.map((name) => name.toLowerCase()));
    return this.db.rows<ProductMatch>(
      sql`select p."id", p."product_name" as "name", p."owner_id" is not null as "own" from "products" p
        where (p."owner_id" is null and p."id" = any(${intArray(catalogueIds)}::int[]))
           or ((p."owner_id" is null or p."owner_id" = ${userId}) and lower(p."product_name") in (select jsonb_array_elements_text(${lowerNames}::jsonb)))
        order by p."owner_id" nulls first, p."id"`,
    );
  }
}
