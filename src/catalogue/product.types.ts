import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { ID, Int } from 'type-graphql';

import { toGlobalId } from '../platform/graphql/global-ids';
import { Money, money } from '../platform/graphql/money';
import { Node } from '../platform/graphql/node';
import { logoPath } from '../platform/logo-path';
import { toMoneyString } from '../platform/money';
import { BillingCycle } from '../platform/record-enums';
import type { Product } from './product.entity';

/** The catalogue's product types (codes.ts PRODUCT_TYPE_LABELS); the values are the stored codes. */
export const ProductType = { SAAS: 1, WORDPRESS: 2, DESKTOP_APP: 3 } as const;

registerEnumType(ProductType, {
  name: 'ProductType',
  description: 'What kind of software a product is.',
  valuesConfig: {
    SAAS: { description: 'Software as a service, used online (REST product_type 1, "SaaS").' },
    WORDPRESS: { description: 'A WordPress plugin or theme (REST product_type 2).' },
    DESKTOP_APP: { description: 'An application installed on a computer (REST product_type 3).' },
  },
});

@ObjectType('Product', { implements: Node, description: 'A catalogue product, or a private one you named yourself.' })
export class ProductView {
  id!: number;
  @Field({ name: 'name', description: 'Its name.' }) productName!: string;
  @Field({ description: 'Its brand.' }) brandName!: string;
  @Field(() => ProductType, { name: 'type', description: 'What kind of software it is.' }) productType!: number;
  @Field(() => ID, { description: 'The global id of its category (a ProductCategory).' }) categoryId!: string;
  @Field({ description: 'What it is, in words; empty when undescribed.' }) description!: string;
  @Field(() => String, { nullable: true, description: 'Its web site; null when unknown.' }) url!: string | null;
  @Field(() => String, { nullable: true, description: 'The URL of its image; null: use the default image.' })
  image!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Its logo, served by this server (a path on its origin): fetched once for a catalogue product, uploaded for a private one; null when none (draw a monogram).',
  })
  logo!: string | null;
  @Field(() => Money, { nullable: true, description: 'Its typical price; null when unknown.' }) price!: Money | null;
  @Field(() => BillingCycle, { description: 'The unit of its typical billing period.' }) billingCycle!: number;
  @Field(() => Int, { description: 'How many billingCycle units its typical billing period lasts.' })
  billingFrequency!: number;
  @Field(() => Int, { description: 'Its typical refund window, in days.' }) refundDays!: number;
  @Field({ description: 'false for a catalogue product, true for one you named yourself.' }) isPrivate!: boolean;
}

export function toProductView(product: Product): ProductView {
  return {
    id: product.id,
    productName: product.productName,
    brandName: product.brandname,
    productType: product.productType,
    categoryId: toGlobalId('ProductCategory', product.category),
    description: product.description,
    url: product.url ?? null,
    image: product.image || null,
    logo: logoPath(product.logoHash),
    price: money(product.price1Value ? toMoneyString(product.price1Value) : null, product.currencyCode),
    billingCycle: product.billingCycle,
    billingFrequency: product.billingFrequency,
    refundDays: product.refundDays,
    isPrivate: product.owner !== null && product.owner !== undefined,
  };
}
