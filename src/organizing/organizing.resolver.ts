import { Arg, ClassType, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';

import { ProductCategory } from '../catalogue/product-category.entity';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { Folder } from './folder.entity';
import {
  FolderInput,
  FolderUpdateInput,
  FolderView,
  NameInput,
  PaymentModeView,
  ProductCategoryView,
  TagView,
  toCategoryView,
  toFolderView,
  toPaymentModeView,
  toTagView,
} from './organizing.types';
import type { OwnedNamed, OwnedNamesService } from './owned-names.service';
import { PaymentMode } from './payment-mode.entity';
import { Tag } from './tag.entity';

interface CrudShape<TRow extends OwnedNamed, TView extends object> {
  /** Singular type name: createFolder, updateFolder, deleteFolder. */
  singular: string;
  /** The list query: folders. */
  plural: string;
  view: ClassType<TView>;
  createInput: ClassType<object>;
  updateInput: ClassType<object>;
  toView: (row: TRow) => TView;
}

/** One resolver shape for the caller's named rows: list, create, update, delete. */
function namedCrudResolver<TRow extends OwnedNamed, TView extends object>(shape: CrudShape<TRow, TView>) {
  // Only the subclasses below are given to buildSchema; they inherit these operations under their own names.
  @Resolver()
  abstract class NamedCrudResolver {
    constructor(private readonly service: OwnedNamesService<TRow>) {}

    @Query(() => [shape.view], { name: shape.plural })
    async list(@Ctx() context: GraphQLContext): Promise<TView[]> {
      return (await this.service.list(requireCaller(context))).map(shape.toView);
    }

    @Mutation(() => shape.view, { name: `create${shape.singular}` })
    async create(
      @Arg('input', () => shape.createInput) input: { name: string },
      @Ctx() context: GraphQLContext,
    ): Promise<TView> {
      return shape.toView(await this.service.create(requireCaller(context), input as { name: string } & Partial<TRow>));
    }

    @Mutation(() => shape.view, { name: `update${shape.singular}` })
    async update(
      @Arg('id', () => Int) id: number,
      @Arg('input', () => shape.updateInput) input: object,
      @Ctx() context: GraphQLContext,
    ): Promise<TView> {
      return shape.toView(await this.service.update(requireCaller(context), id, input as Partial<TRow>));
    }

    @Mutation(() => Boolean, { name: `delete${shape.singular}` })
    async remove(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<boolean> {
      await this.service.remove(requireCaller(context), id);
      return true;
    }
  }
  return NamedCrudResolver;
}

@Resolver()
export class FolderResolver extends namedCrudResolver<Folder, FolderView>({
  singular: 'Folder',
  plural: 'folders',
  view: FolderView,
  createInput: FolderInput,
  updateInput: FolderUpdateInput,
  toView: toFolderView,
}) {}

@Resolver()
export class TagResolver extends namedCrudResolver<Tag, TagView>({
  singular: 'Tag',
  plural: 'tags',
  view: TagView,
  createInput: NameInput,
  updateInput: NameInput,
  toView: toTagView,
}) {}

@Resolver()
export class PaymentModeResolver extends namedCrudResolver<PaymentMode, PaymentModeView>({
  singular: 'PaymentMode',
  plural: 'paymentModes',
  view: PaymentModeView,
  createInput: NameInput,
  updateInput: NameInput,
  toView: toPaymentModeView,
}) {}

/** Global categories plus the caller's own; only the caller's own can be changed. */
@Resolver()
export class ProductCategoryResolver extends namedCrudResolver<ProductCategory, ProductCategoryView>({
  singular: 'ProductCategory',
  plural: 'productCategories',
  view: ProductCategoryView,
  createInput: NameInput,
  updateInput: NameInput,
  toView: toCategoryView,
}) {}
