import { CurrencyResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';

import { toMoneyString } from '../platform/money';
import type { Product } from './product.entity';

@ObjectType('Product', { description: 'A catalogue product, or a private one you named yourself.' })
export class ProductSummaryView {
  @Field(() => Int) id!: number;
  @Field() productName!: string;
  @Field() brandName!: string;
  @Field(() => Int) categoryId!: number;
  @Field() description!: string;
  @Field(() => String, { nullable: true }) url!: string | null;
  @Field(() => String, { nullable: true, description: 'null: use the default image' }) image!: string | null;
  @Field(() => CurrencyResolver) currency!: string;
  @Field(() => String, { nullable: true, description: 'Typical price, decimal string' }) price!: string | null;
  @Field(() => Int, { description: '2 weekly, 3 monthly, 4 yearly' }) billingCycle!: number;
  @Field(() => Int) billingFrequency!: number;
  @Field(() => Int) refundDays!: number;
  @Field({ description: 'false for a catalogue product, true for one you named yourself' }) isPrivate!: boolean;
}

export function toProductSummary(product: Product): ProductSummaryView {
  return {
    id: product.id,
    productName: product.productName,
    brandName: product.brandname,
    categoryId: product.category,
    description: product.description,
    url: product.url ?? null,
    image: product.image || null,
    currency: product.currencyCode,
    price: product.price1Value ? toMoneyString(product.price1Value) : null,
    billingCycle: product.billingCycle,
    billingFrequency: product.billingFrequency,
    refundDays: product.refundDays,
    isPrivate: product.owner !== null && product.owner !== undefined,
  };
}
