import { globalOrOwn } from '../platform/caller';
import type { DataSource } from '../platform/db/data-source';
import { escapeLike } from '../platform/objects';
import { ProductCategory } from './product-category.entity';

/** A page of categories: a name search, an order over entity properties, offset paging. */
export interface CategoryPage {
  q?: string;
  orderBy: Array<Record<string, 'asc' | 'desc'>>;
  offset: number;
  limit: number;
}

/** The product_categories table as the catalogue reads it (the organizing feature writes a user's own). */
export class ProductCategoryRepository {
  constructor(private readonly db: DataSource) {}

  /** Global categories and the user's own. */
  page(userId: number, page: CategoryPage): Promise<ProductCategory[]> {
    return this.db
      .em()
      .find(
        ProductCategory,
        { ...globalOrOwn(userId), ...(page.q ? { name: { $ilike: `%${escapeLike(page.q)}%` } } : {}) },
        { orderBy: page.orderBy, offset: page.offset, limit: page.limit },
      );
  }
}
