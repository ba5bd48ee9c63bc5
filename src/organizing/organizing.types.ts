import { DateTimeResolver } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';

import type { ProductCategory } from '../catalogue/product-category.entity';
import { toIsoMicros } from '../platform/wire-formats';
import type { Folder } from './folder.entity';
import type { PaymentMode } from './payment-mode.entity';
import type { Tag } from './tag.entity';

@ObjectType('Folder')
export class FolderView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true, description: 'CSS hex colour, #rgb or #rrggbb' }) color!: string | null;
  @Field() isDefault!: boolean;
}

@ObjectType('Tag')
export class TagView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType('PaymentMode', { description: 'How a user pays: a card, PayPal, a bank account…' })
export class PaymentModeView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}

@ObjectType('ProductCategory')
export class ProductCategoryView {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => Int, { nullable: true, description: 'null for the global categories every user shares' }) userId!:
    number | null;
  @Field(() => DateTimeResolver) createdAt!: string;
}

@InputType()
export class FolderInput {
  @Field() name!: string;
  @Field(() => String, { nullable: true }) color?: string | null;
}

@InputType()
export class FolderUpdateInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) color?: string | null;
}

@InputType({ description: 'The name of a tag, payment mode or category.' })
export class NameInput {
  @Field() name!: string;
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
  userId: category.user ?? null,
  createdAt: toIsoMicros(category.createdAt)!,
});
