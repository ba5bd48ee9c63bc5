import { Arg, Ctx, Int, ObjectType, Query, Resolver } from 'type-graphql';

import { AppError } from '../platform/errors';
import { Connection, pageOf } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { decodeCursor } from '../platform/graphql/cursors';
import { type CatalogueService, MAX_SEARCH_RESULTS } from './catalogue.service';
import { ProductSummaryView, toProductSummary } from './product.types';

@ObjectType('ProductConnection')
class ProductConnection extends Connection('Product', ProductSummaryView) {}

@Resolver()
export class CatalogueResolver {
  constructor(private readonly catalogue: CatalogueService) {}

  @Query(() => ProductConnection, {
    description: `With search: best matches first (at most ${MAX_SEARCH_RESULTS}); without: by name.`,
  })
  async products(
    @Ctx() context: GraphQLContext,
    @Arg('search', () => String, { nullable: true }) search?: string,
    @Arg('categoryId', () => Int, { nullable: true }) categoryId?: number,
    @Arg('first', () => Int, { defaultValue: 20 }) first: number = 20,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<ProductConnection> {
    if (first < 1 || first > MAX_SEARCH_RESULTS)
      throw AppError.field('first', `The first must be from 1 to ${MAX_SEARCH_RESULTS}.`);
    const caller = requireCaller(context);
    const offset = after ? decodeCursor(after) + 1 : 0;
    // One more than asked tells whether a next page exists.
    const page = { categoryId: categoryId ?? undefined, offset, limit: first + 1 };
    const found = search?.trim()
      ? await this.catalogue.search(caller, search, page)
      : await this.catalogue.browse(caller, page);
    return pageOf(found, first, offset, toProductSummary);
  }

  @Query(() => ProductSummaryView)
  async product(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<ProductSummaryView> {
    return toProductSummary(await this.catalogue.product(requireCaller(context), id));
  }
}
