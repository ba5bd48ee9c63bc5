import sql, { raw } from 'sql-template-tag';

import { globalOrOwn } from '../platform/caller';
import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import { escapeLike } from '../platform/objects';
import { Product } from './product.entity';

/** Trigram similarity from which a name counts as a close spelling of what was typed. */
const CLOSE_SPELLING = 0.3;

/** Products under their entity's property names (a create's plan reads its product with it too). */
export const PRODUCT_AS_ENTITY = `select "id", "owner_id" as "owner", "category_id" as "category", "product_name" as "productName", "brandname", "description",
       "url", "image", "favicon", "product_type" as "productType", "currency_code" as "currencyCode", "price1_value" as "price1Value",
       "billing_cycle" as "billingCycle", "billing_frequency" as "billingFrequency", "refund_days" as "refundDays", "logo_hash" as "logoHash" from "products"`;

/** A page of products, in one category or all. */
export interface ProductPage {
  categoryId?: number;
  limit: number;
  offset: number;
}

/** The products table: the global catalogue and each user's private products. */
export class ProductRepository {
  constructor(private readonly db: DataSource) {}

  /** Ids of the products the user sees that match `q` (lower case), best first: exact, prefix, word prefix, close spelling. */
  async searchIds(userId: number, q: string, page: ProductPage): Promise<number[]> {
    const like = escapeLike(q);
    const categoryId = page.categoryId ?? null;
    const rows = await this.db.rows<{ id: number }>(
      sql`select p."id" from (
         select p."id", p."product_name",
                case when lower(p."product_name") = ${q} then 0
                     when lower(p."product_name") like ${`${like}%`} then 1
                     when lower(p."product_name") like ${`% ${like}%`} or lower(p."brandname") like ${`${like}%`} then 2
                     else 3 end as "tier",
                greatest(similarity(lower(p."product_name"), ${q}), word_similarity(${q}, lower(p."product_name"))) as "score"
           from "products" p
          where (p."owner_id" is null or p."owner_id" = ${userId}) and (${categoryId} :: int is null or p."category_id" = ${categoryId})
       ) p
       where p."tier" < 3 or p."score" >= ${CLOSE_SPELLING}
       order by p."tier", p."score" desc, lower(p."product_name"), p."id"
       limit ${page.limit} offset ${page.offset}`,
    );
    return rows.map((row) => row.id);
  }

  /** These products, in no particular order. */
  entities(ids: readonly number[]): Promise<Product[]> {
    return this.db.em().find(Product, { id: { $in: [...ids] } });
  }

  /** The product if the user sees it (global, or theirs). */
  visible(userId: number, id: number): Promise<Product | null> {
    return this.db.em().findOne(Product, { id, ...globalOrOwn(userId, 'owner') });
  }

  /** A page of the products the user sees, in name order. */
  browse(userId: number, page: ProductPage): Promise<Product[]> {
    return this.db
      .em()
      .find(
        Product,
        { ...globalOrOwn(userId, 'owner'), ...(page.categoryId ? { category: page.categoryId } : {}) },
        { orderBy: { productName: 'asc', id: 'asc' }, offset: page.offset, limit: page.limit },
      );
  }

  /** How many products the user sees, in one category or all (browse's whole list). */
  countVisible(userId: number, categoryId?: number): Promise<number> {
    return this.db
      .em()
      .count(Product, { ...globalOrOwn(userId, 'owner'), ...(categoryId ? { category: categoryId } : {}) });
  }

  /**
   * Makes the user's private products of these names unless they exist, in one statement that concurrent
   * requests cannot both win: the insert yields to a row another transaction made meanwhile (waiting for its
   * commit). Names go in sorted, so two such statements take their rows in the same order.
   */
  async ensurePrivate(userId: number, names: readonly string[], categoryId: number): Promise<void> {
    await this.db.run(
      sql`insert into "products" ("owner_id", "category_id", "product_name", "brandname", "image", "favicon")
       select ${userId}, ${categoryId}, n.name, n.name, '', '' from jsonb_array_elements_text(${JSON.stringify([...names].sort())}::jsonb) as n(name)
       on conflict ("owner_id", "product_name") where "owner_id" is not null do nothing`,
    );
  }

  /**
   * Shows `logoHash` (a Logo's; null: none) on the user's private product `id`: the logo it showed before
   * (`previous`), or null when the user has no such product.
   */
  async setOwnLogo(userId: number, id: number, logoHash: string | null): Promise<{ previous: string | null } | null> {
    const [row] = await this.db.rows<{ previous: string | null }>(
      sql`with "old" as (select "id", "logo_hash" from "products" where "id" = ${id} and "owner_id" = ${userId} for update)
          update "products" p set "logo_hash" = ${logoHash} from "old" where p."id" = "old"."id"
          returning "old"."logo_hash" as "previous"`,
    );
    return row ?? null;
  }

  /** Shows a fetched logo (a Logo's hash) on catalogue product `id`. */
  async setCatalogueLogo(id: number, logoHash: string): Promise<void> {
    await this.db.run(sql`update "products" set "logo_hash" = ${logoHash} where "id" = ${id} and "owner_id" is null`);
  }

  /** Products by id under their entity's property names, as plain rows (a page's nested products, read-only). */
  byIds(ids: readonly number[]): Promise<Product[]> {
    return this.db.rows<Product>(sql`${raw(PRODUCT_AS_ENTITY)} where "id" = any(${intArray(ids)}::int[])`);
  }
}
