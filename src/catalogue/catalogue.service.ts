import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import { entityOrder, type SortKey } from '../platform/objects';
import type { Product } from './product.entity';
import type { ProductRepository } from './product.repository';
import type { ProductCategory } from './product-category.entity';
import type { ProductCategoryRepository } from './product-category.repository';

/** Search answers at most this many products. */
export const MAX_SEARCH_RESULTS = 50;

export const CATEGORY_SORT_FIELDS = ['id', 'name', 'created_at', 'updated_at'] as const;
export type CategorySortField = (typeof CATEGORY_SORT_FIELDS)[number];

export interface CategoryListQuery {
  q?: string;
  start: number;
  length: number;
  sort: SortKey<CategorySortField>[];
}

const CATEGORY_SORT_PROPERTIES: Record<CategorySortField, keyof ProductCategory> = {
  id: 'id',
  name: 'name',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
};

/** The global catalogue plus each user's private products, and the product categories. */
export class CatalogueService {
  constructor(
    private readonly products: ProductRepository,
    private readonly productCategories: ProductCategoryRepository,
  ) {}

  /**
   * Products as a person typing expects them: the exact name first, then names starting with the text, then
   * names (or brands) with a word starting with it, then close spellings (pg_trgm), best similarity first.
   */
  async search(
    caller: Caller,
    text: string,
    options: { categoryId?: number; offset?: number; limit?: number } = {},
  ): Promise<Product[]> {
    const q = text.trim().toLowerCase();
    if (q.length === 0) return [];
    const limit = Math.min(options.limit ?? MAX_SEARCH_RESULTS, MAX_SEARCH_RESULTS);
    const ids = await this.products.searchIds(caller.userId, q, {
      categoryId: options.categoryId,
      limit,
      offset: options.offset ?? 0,
    });
    if (ids.length === 0) return [];
    const products = await this.products.entities(ids);
    const byId = new Map(products.map((product) => [product.id, product]));
    return ids.map((id) => byId.get(id)!);
  }

  async product(caller: Caller, id: number): Promise<Product> {
    const product = await this.products.visible(caller.userId, id);
    if (!product) throw AppError.notFound('Product');
    return product;
  }

  /** A page of products in name order (GraphQL browsing without a search text). */
  async browse(caller: Caller, options: { categoryId?: number; offset: number; limit: number }): Promise<Product[]> {
    return this.products.browse(caller.userId, options);
  }

  /** How many products browse pages through. */
  async browseCount(caller: Caller, categoryId?: number): Promise<number> {
    return this.products.countVisible(caller.userId, categoryId);
  }

  /** Global categories and the caller's own. */
  async categories(caller: Caller, query: CategoryListQuery): Promise<ProductCategory[]> {
    return this.productCategories.page(caller.userId, {
      q: query.q?.trim(),
      orderBy: entityOrder(query.sort, CATEGORY_SORT_PROPERTIES),
      offset: query.start,
      limit: query.length,
    });
  }
}
