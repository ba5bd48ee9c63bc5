import { Arg, ClassType, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from 'type-graphql';

import { ProductCategory } from '../catalogue/product-category.entity';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { Folder } from './folder.entity';
import {
  FolderInput,
  FolderUpdateInput,
  FolderView,
  IdInput,
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
  /** The payloads' field of the object: folder. */
  field: string;
  /** In words, for descriptions: folder, payment mode. */
  noun: string;
  nouns: string;
  view: ClassType<TView>;
  /** The fields a new one takes; its input type is this under its mutation's name. */
  fields: ClassType<object>;
  /** The changes an update takes; its input type adds the id. */
  changes: ClassType<object>;
  toView: (row: TRow) => TView;
}

/** One resolver shape for the caller's named rows: list, create, update, delete. */
function namedCrudResolver<TRow extends OwnedNamed, TView extends object>(shape: CrudShape<TRow, TView>) {
  const { singular, field, noun } = shape;
  @InputType(`Create${singular}Input`, { description: `A new ${noun}.` })
  class CreateInput extends (shape.fields as ClassType<object>) {}
  @InputType(`Update${singular}Input`, { description: `Changes to one of your ${shape.nouns}.` })
  class UpdateInput extends (shape.changes as ClassType<object>) {
    @Field(() => ID, { description: `The ${noun} to change.` }) id!: string;
  }
  @InputType(`Delete${singular}Input`, { description: `The ${noun} to delete.` })
  class DeleteInput extends IdInput {}

  const CreatePayload = MutationPayload(`Create${singular}Payload`, field, () => shape.view, `The new ${noun}.`);
  const UpdatePayload = MutationPayload(`Update${singular}Payload`, field, () => shape.view, `The changed ${noun}.`);
  const deleted = `deleted${singular}Id`;
  const DeletePayload = MutationPayload(`Delete${singular}Payload`, deleted, () => ID, `The deleted ${noun}.`);

  // Only the subclasses below are given to buildSchema; they inherit these operations under their own names.
  @Resolver()
  abstract class NamedCrudResolver {
    constructor(private readonly service: OwnedNamesService<TRow>) {}

    @Query(() => [shape.view], { name: shape.plural, description: `Your ${shape.nouns}.` })
    async list(@Ctx() context: GraphQLContext): Promise<TView[]> {
      return (await this.service.list(requireCaller(context))).map(shape.toView);
    }

    @Mutation(() => CreatePayload, { name: `create${singular}`, description: `Makes a ${noun}.` })
    async create(
      @Arg('input', () => CreateInput, { description: `The new ${noun}.` }) input: CreateInput,
      @Ctx() context: GraphQLContext,
    ): Promise<object> {
      const row = await this.service.create(requireCaller(context), { ...input } as { name: string } & Partial<TRow>);
      return { [field]: shape.toView(row) };
    }

    @Mutation(() => UpdatePayload, { name: `update${singular}`, description: `Changes a ${noun}.` })
    async update(
      @Arg('input', () => UpdateInput, { description: `The ${noun} and its changes.` }) input: UpdateInput,
      @Ctx() context: GraphQLContext,
    ): Promise<object> {
      const { id, ...changes } = input as UpdateInput & Partial<TRow>;
      const row = await this.service.update(
        requireCaller(context),
        idOf(id, singular),
        changes as unknown as Partial<TRow>,
      );
      return { [field]: shape.toView(row) };
    }

    @Mutation(() => DeletePayload, { name: `delete${singular}`, description: `Deletes a ${noun}.` })
    async remove(
      @Arg('input', () => DeleteInput, { description: `The ${noun} to delete.` }) input: DeleteInput,
      @Ctx() context: GraphQLContext,
    ): Promise<object> {
      await this.service.remove(requireCaller(context), idOf(input.id, singular));
      return { [deleted]: input.id };
    }
  }
  return NamedCrudResolver;
}

/** `node(id:)` for a named row: the caller's own (or, for categories, a global one). */
export function namedNodeLookup<TRow extends OwnedNamed>(
  service: OwnedNamesService<TRow>,
  toView: (row: TRow) => object,
): NodeLookup {
  return async (caller, id) => toView(await service.get(caller, id));
}

@Resolver()
export class FolderResolver extends namedCrudResolver<Folder, FolderView>({
  singular: 'Folder',
  plural: 'folders',
  field: 'folder',
  noun: 'folder',
  nouns: 'folders',
  view: FolderView,
  fields: FolderInput,
  changes: FolderUpdateInput,
  toView: toFolderView,
}) {}

@Resolver()
export class TagResolver extends namedCrudResolver<Tag, TagView>({
  singular: 'Tag',
  plural: 'tags',
  field: 'tag',
  noun: 'tag',
  nouns: 'tags',
  view: TagView,
  fields: NameInput,
  changes: NameInput,
  toView: toTagView,
}) {}

@Resolver()
export class PaymentModeResolver extends namedCrudResolver<PaymentMode, PaymentModeView>({
  singular: 'PaymentMode',
  plural: 'paymentModes',
  field: 'paymentMode',
  noun: 'payment mode',
  nouns: 'payment modes',
  view: PaymentModeView,
  fields: NameInput,
  changes: NameInput,
  toView: toPaymentModeView,
}) {}

/** Global categories plus the caller's own; only the caller's own can be changed. */
@Resolver()
export class ProductCategoryResolver extends namedCrudResolver<ProductCategory, ProductCategoryView>({
  singular: 'ProductCategory',
  plural: 'productCategories',
  field: 'productCategory',
  noun: 'category',
  nouns: 'categories',
  view: ProductCategoryView,
  fields: NameInput,
  changes: NameInput,
  toView: toCategoryView,
}) {}
