import type { Product } from '../../src/catalogue/product.entity';
import type { ProductCategory } from '../../src/catalogue/product-category.entity';
import { toMoneyString } from '../../src/platform/money';
import { toIsoMicros, toSqlSeconds } from '../../src/platform/wire-formats';

const money = (value: string | null | undefined) =>
  value === null || value === undefined ? null : toMoneyString(value);

/** A Catalogue product as search lists it (every documented field but updated_at). */
export function presentProduct(product: Product, defaultImage: string) {
  return {
    id: product.id,
    admin_id: product.adminId,
    category_id: product.category,
    product_name: product.productName,
    brandname: product.brandname,
    product_type: product.productType,
    description: product.description,
    featured: null,
    rating: null,
    pop_factor: null,
    url: product.url ?? null,
    url_app: product.urlApp ?? null,
    app_url: product.appUrl ?? null,
    image: product.image || defaultImage,
    favicon: product.favicon || defaultImage,
    status: product.status,
    sub_ltd: product.subLtd,
    launch_year: product.launchYear ?? null,
    sub_platform: product.subPlatform,
    pricing_type: product.pricingType,
    currency_code: product.currencyCode,
    price1_name: product.price1Name ?? null,
    price1_value: money(product.price1Value),
    price2_name: product.price2Name ?? null,
    price2_value: money(product.price2Value),
    price3_name: product.price3Name ?? null,
    price3_value: money(product.price3Value),
    refund_days: product.refundDays,
    billing_frequency: product.billingFrequency,
    billing_cycle: product.billingCycle,
    ltdval_price: money(product.ltdvalPrice),
    ltdval_frequency: product.ltdvalFrequency ?? null,
    ltdval_cycle: product.ltdvalCycle ?? null,
    created_at: toSqlSeconds(product.createdAt),
    created_by: product.createdBy,
  };
}

/** The single-product read adds updated_at. */
export function presentProductDetail(product: Product, defaultImage: string) {
  return { ...presentProduct(product, defaultImage), updated_at: toSqlSeconds(product.updatedAt ?? null) };
}

export function presentCategory(category: ProductCategory) {
  return {
    id: category.id,
    user_id: category.user ?? null,
    name: category.name,
    created_at: toIsoMicros(category.createdAt),
    updated_at: toIsoMicros(category.updatedAt ?? null),
  };
}
