import { globalOrOwnSql } from '../platform/caller';
import { intArray, rowsOf, run, type StatementTarget } from '../platform/db/statements';
import { escapeLike } from '../platform/objects';
import type { Product } from './product.entity';

/** Trigram similarity from which a name counts as a close spelling of what was typed. */
const CLOSE_SPELLING = 0.3;

/** Products under their entity's property names (a create's plan reads its product with it too). */
export const PRODUCT_AS_ENTITY = `select "id", "owner_id" as "owner", "category_id" as "category", "product_name" as "productName", "brandname", "description",
       "url", "image", "favicon", "product_type" as "productType", "currency_code" as "currencyCode", "price1_value" as "price1Value",
       "billing_cycle" as "billingCycle", "billing_frequency" as "billingFrequency", "refund_days" as "refundDays" from "products"`;

/** Statements on the products table beyond the unit of work's: the ranked search and the private find-or-create. */
export const productRepository = {
  /** Ids of the products the user sees that match `q` (lower case), best first: exact, prefix, word prefix, close spelling. */
  async searchIds(
    em: StatementTarget,
    userId: number,
    q: string,
    page: { categoryId?: number; limit: number; offset: number },
  ): Promise<number[]> {
    const like = escapeLike(q);
    const rows = await rowsOf<{ id: number }>(
      em,
      `select p."id" from (
         select p."id", p."product_name",
                case when lower(p."product_name") = ? then 0
                     when lower(p."product_name") like ? then 1
                     when lower(p."product_name") like ? or lower(p."brandname") like ? then 2
                     else 3 end as "tier",
                greatest(similarity(lower(p."product_name"), ?), word_similarity(?, lower(p."product_name"))) as "score"
           from "products" p
          where ${globalOrOwnSql('p."owner_id"')} and (? :: int is null or p."category_id" = ?)
       ) p
       where p."tier" < 3 or p."score" >= ?
       order by p."tier", p."score" desc, lower(p."product_name"), p."id"
       limit ? offset ?`,
      [
        q,
        `${like}%`,
        `% ${like}%`,
        `${like}%`,
        q,
        q,
        userId,
        page.categoryId ?? null,
        page.categoryId ?? null,
        CLOSE_SPELLING,
        page.limit,
        page.offset,
      ],
    );
    return rows.map((row) => row.id);
  },

  /**
   * Makes the user's private products of these names unless they exist, in one statement that concurrent
   * requests cannot both win: the insert yields to a row another transaction made meanwhile (waiting for its
   * commit). Names go in sorted, so two such statements take their rows in the same order.
   */
  async ensurePrivate(
    em: StatementTarget,
    userId: number,
    names: readonly string[],
    categoryId: number,
  ): Promise<void> {
    await run(
      em,
      `insert into "products" ("owner_id", "category_id", "product_name", "brandname", "image", "favicon")
       select ?, ?, n.name, n.name, '', '' from jsonb_array_elements_text(?::jsonb) as n(name)
       on conflict ("owner_id", "product_name") where "owner_id" is not null do nothing`,
      [userId, categoryId, JSON.stringify([...names].sort())],
    );
  },

  /** Products by id under their entity's property names, as plain rows (a page's nested products, read-only). */
  byIds(em: StatementTarget, ids: readonly number[]): Promise<Product[]> {
    return rowsOf<Product>(em, `${PRODUCT_AS_ENTITY} where "id" = any(?::int[])`, [intArray(ids)]);
  },
};
