import { Field, Int, ObjectType } from 'type-graphql';
import type { Product } from './product.entity';

@ObjectType('ProductSummary', { description: 'The catalogue (or private) product a record links.' })
export class ProductSummaryView {
  @Field(() => Int) id!: number;
  @Field() productName!: string;
  @Field() brandName!: string;
  @Field(() => Int) categoryId!: number;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field({ description: 'false for a catalogue product, true for one you named yourself' }) isPrivate!: boolean;
}

export function toProductSummary(product: Product): ProductSummaryView {
  return {
    id: product.id,
    productName: product.productName,
    brandName: product.brandname,
    categoryId: product.category,
    url: product.url ?? null,
    isPrivate: product.owner !== null && product.owner !== undefined,
  };
}
