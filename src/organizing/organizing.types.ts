import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';

import type { ProductCategory } from '../catalogue/product-category.entity';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import type { Folder } from './folder.entity';
import type { PaymentMode } from './payment-mode.entity';
import type { Tag } from './tag.entity';

// Object types with an id implement Node: `id` (the global id) and `legacyId` come from the row id.
@ObjectType('Folder', { implements: Node, description: 'A folder records are filed in.' })
export class FolderView {
  id!: number;
  @Field({ description: 'Its name, unique among your folders.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'CSS hex colour, #rgb or #rrggbb' }) color!: string | null;
  @Field({ description: 'Whether new records go in it when they name no folder.' }) isDefault!: boolean;
}

@ObjectType('Tag', { implements: Node, description: 'A label records can carry, any number each.' })
export class TagView {
  id!: number;
  @Field({ description: 'Its name, unique among your tags.' }) name!: string;
}

@ObjectType('PaymentMode', { implements: Node, description: 'How a user pays: a card, PayPal, a bank account…' })
export class PaymentModeView {
  id!: number;
  @Field({ description: 'Its name, unique among your payment modes.' }) name!: string;
}

@ObjectType('ProductCategory', { implements: Node, description: 'A category of products and records.' })
export class ProductCategoryView {
  id!: number;
  @Field({ description: 'Its name.' }) name!: string;
  @Field({ description: 'true for the global categories every user shares (read-only); false for your own.' })
  isGlobal!: boolean;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
}

// Base inputs: each mutation's input type is a named subclass of one (organizing.resolver.ts).
/** The fields of a new folder. */
@InputType()
export class FolderInput {
  @Field({ description: 'Its name, unique among your folders.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'CSS hex colour, #rgb or #rrggbb' }) color?: string | null;
}

/** The changes to a folder: the fields given are set. */
@InputType()
export class FolderUpdateInput {
  @Field({ nullable: true, description: 'A new name, unique among your folders.' }) name?: string;
  @Field(() => String, { nullable: true, description: 'CSS hex colour, #rgb or #rrggbb; null for none' })
  color?: string | null;
}

/** The name of a tag, payment mode or category. */
@InputType()
export class NameInput {
  @Field({ description: 'The name, unique among yours of this kind.' }) name!: string;
}

/** An id and nothing else: each mutation that takes only an id names its own subclass. */
@InputType()
export abstract class IdInput {
  @Field(() => ID, { description: 'The global id of the object.' }) id!: string;
}

export const toFolderView = (folder: Folder): FolderView => ({
  id: folder.id,
  name: folder.name,
  color: folder.color ?? null,
  isDefault: folder.isDefault === 1,
});
export const toTagView = (tag: Tag): TagView => ({ id: tag.id, name: tag.name });
export const toPaymentModeView = (mode: PaymentMode): PaymentModeView => ({ id: mode.id, name: mode.name });
export const toCategoryView = (category: ProductCategory): ProductCategoryView => ({
  id: category.id,
  name: category.name,
  isGlobal: category.user === null || category.user === undefined,
  createdAt: toIsoMicros(category.createdAt)!,
});
