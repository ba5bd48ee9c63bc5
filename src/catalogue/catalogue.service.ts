import type { MikroORM } from '@mikro-orm/core';
import { entityOrder, escapeLike, type SortKey } from '../platform/objects';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { Product } from './product.entity';
import { ProductCategory } from './product-category.entity';

/** Search answers at most this many products. */
export const MAX_SEARCH_RESULTS = 50;
/** Trigram similarity from which a name counts as a close spelling of what was typed. */
const CLOSE_SPELLING = 0.3;

export const CATEGORY_SORT_FIELDS = ['id', 'name', 'created_at', 'updated_at'] as const;
export type CategorySortField = (typeof CATEGORY_SORT_FIELDS)[number];

export interface CategoryListQuery {
  q?: string;
  start: number;
  length: number;
  sort: SortKey<CategorySortField>[];
}

const CATEGORY_SORT_PROPERTIES: Record<CategorySortField, keyof ProductCategory> = { id: 'id', name: 'name', created_at: 'createdAt', updated_at: 'updatedAt' };

/** The global catalogue plus each user's private products, and the product categories. */
export class CatalogueService {
  constructor(private readonly orm: MikroORM<PostgreSqlDriver>) {}

  /**
   * Products as a person typing expects them: the exact name first, then names starting with the text, then
   * names (or brands) with a word starting with it, then close spellings (pg_trgm), best similarity first.
   */
  async search(caller: Caller, text: string, options: { categoryId?: number; offset?: number; limit?: number } = {}): Promise<Product[]> {
    const q = text.trim().toLowerCase();
    if (q.length === 0) return [];
    const limit = Math.min(options.limit ?? MAX_SEARCH_RESULTS, MAX_SEARCH_RESULTS);
    const like = escapeLike(q);
    const rows = await this.orm.em.getConnection().execute<{ id: number }[]>(
      `select p."id" from (
         select p."id", p."product_name",
                case when lower(p."product_name") = ? then 0
                     when lower(p."product_name") like ? then 1
                     when lower(p."product_name") like ? or lower(p."brandname") like ? then 2
                     else 3 end as "tier",
                greatest(similarity(lower(p."product_name"), ?), word_similarity(?, lower(p."product_name"))) as "score"
           from "products" p
          where (p."owner_id" is null or p."owner_id" = ?) and (? :: int is null or p."category_id" = ?)
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
        caller.userId,
        options.categoryId ?? null,
        options.categoryId ?? null,
        CLOSE_SPELLING,
        limit,
        options.offset ?? 0,
      ],
    );
    if (rows.length === 0) return [];
    const products = await this.orm.em.fork().find(Product, { id: { $in: rows.map((row) => row.id) } });
    const byId = new Map(products.map((product) => [product.id, product]));
    return rows.map((row) => byId.get(row.id)!);
  }

  async product(caller: Caller, id: number): Promise<Product> {
    const product = await this.orm.em.fork().findOne(Product, { id, $or: [{ owner: null }, { owner: caller.userId }] });
    if (!product) throw AppError.notFound('Product');
    return product;
  }

  /** A page of products in name order (GraphQL browsing without a search text). */
  async browse(caller: Caller, options: { categoryId?: number; offset: number; limit: number }): Promise<Product[]> {
    return this.orm.em
      .fork()
      .find(
        Product,
        { $or: [{ owner: null }, { owner: caller.userId }], ...(options.categoryId ? { category: options.categoryId } : {}) },
        { orderBy: { productName: 'asc', id: 'asc' }, offset: options.offset, limit: options.limit },
      );
  }

  /** Global categories and the caller's own. */
  async categories(caller: Caller, query: CategoryListQuery): Promise<ProductCategory[]> {
    const q = query.q?.trim();
    return this.orm.em
      .fork()
      .find(
        ProductCategory,
        { $or: [{ user: null }, { user: caller.userId }], ...(q ? { name: { $ilike: `%${escapeLike(q)}%` } } : {}) },
        { orderBy: entityOrder(query.sort, CATEGORY_SORT_PROPERTIES), offset: query.start, limit: query.length },
      );
  }
}
