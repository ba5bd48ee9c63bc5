import { Arg, Args, Ctx, ID, ObjectType, Query, Resolver } from 'type-graphql';

import { Connection, type Page, PageArgs, pageOfList, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, optionalIdOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { type CatalogueService, MAX_SEARCH_RESULTS } from './catalogue.service';
import { ProductView, toProductView } from './product.types';

/** A page of products when neither first nor last is given. */
const DEFAULT_PRODUCTS = 20;

@ObjectType('ProductConnection', { description: 'A page of products.' })
class ProductConnection extends Connection('Product', ProductView) {}

/** `node(id:)` for a product: a catalogue product, or the caller's own private one. */
export function productNodeLookup(catalogue: CatalogueService): NodeLookup {
  return async (caller, id) => toProductView(await catalogue.product(caller, id));
}

@Resolver()
export class CatalogueResolver {
  constructor(private readonly catalogue: CatalogueService) {}

  @Query(() => ProductConnection, {
    description: `Catalogue products and your private ones, ${DEFAULT_PRODUCTS} a page unless first or last says otherwise (at most ${MAX_SEARCH_RESULTS}). With search: the best ${MAX_SEARCH_RESULTS} matches at most, best first; without: all, by name.`,
  })
  async products(
    @Ctx() context: GraphQLContext,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('search', () => String, {
      nullable: true,
      description: 'Text a product name (or brand) starts with, has a word starting with, or is spelt close to.',
    })
    search?: string | null,
    @Arg('categoryId', () => ID, { nullable: true, description: 'Only products of this category (global id).' })
    categoryGlobalId?: string | null,
  ): Promise<Page<ProductView>> {
    const caller = requireCaller(context);
    const categoryId = optionalIdOf(categoryGlobalId, 'ProductCategory', 'categoryId') ?? undefined;
    const limits = { defaultSize: DEFAULT_PRODUCTS, maxSize: MAX_SEARCH_RESULTS };
    if (search?.trim()) {
      const found = await this.catalogue.search(caller, search, { categoryId, offset: 0, limit: MAX_SEARCH_RESULTS });
      return pageOfList(found, page, limits, toProductView);
    }
    return readPage(
      page,
      limits,
      async (offset, limit) => {
        const rows = limit === 0 ? [] : await this.catalogue.browse(caller, { categoryId, offset, limit });
        return { rows, total: await this.catalogue.browseCount(caller, categoryId) };
      },
      toProductView,
    );
  }

  @Query(() => ProductView, { description: 'A catalogue product, or one of your private ones.' })
  async product(
    @Arg('id', () => ID, { description: 'The product (global id).' }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ProductView> {
    return toProductView(await this.catalogue.product(requireCaller(context), idOf(id, 'Product')));
  }
}
