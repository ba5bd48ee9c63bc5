import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';

import { AlertView, toAlertView } from '../alerts/alert.resolver';
import type { Product } from '../catalogue/product.entity';
import { ProductSummaryView, toProductSummary } from '../catalogue/product.types';
import { FolderView, PaymentModeView, ProductCategoryView, TagView, toTagView } from '../organizing/organizing.types';
import { AppError } from '../platform/errors';
import { pageOf } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { decodeCursor } from '../platform/graphql/cursors';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { definedOnly } from '../platform/objects';
import { toIsoMicros } from '../platform/wire-formats';
import { stepsOf } from './price-history';
import type { SubscriptionInput, SubscriptionPatch } from './subscription.input';
import { DEFAULT_LENGTH, DEFAULT_SORT, MAX_LENGTH } from './subscription.list';
import type { Loaders } from './subscription.loaders';
import { type ProductSummaryColumns, seesAlertSetUp } from './subscription.record';
import type { SubscriptionService } from './subscription.service';
import {
  AddonCreateInput,
  asRecordView,
  CalendarEntryView,
  PriceStepView,
  SubscriptionConnection,
  SubscriptionCreateInput,
  SubscriptionFilter,
  SubscriptionOrder,
  SubscriptionRecordView,
  SubscriptionUpdateInput,
} from './subscription.types';

/** GraphQL input → the domain input: one of productId or productName names the product. */
function toPatch(input: SubscriptionUpdateInput): SubscriptionPatch {
  const { productId, productName, ...rest } = input;
  if (productId !== undefined && productName !== undefined)
    throw AppError.field('brand_id', 'Give productId or productName, not both.');
  const patch: SubscriptionPatch = definedOnly(rest);
  if (productId !== undefined) patch.product = { id: productId };
  if (productName !== undefined) patch.product = { name: productName };
  return patch;
}

/**
 * The queries of records (and spendingSummary, the spending feature's) that read only tables the user's data
 * version covers (see the data_versions migration), so their results may be kept until it changes. The
 * calendar is left out: a year of it is too big to keep; paymentEntries too: reading it brings the ledger up to date.
 */
export const VERSIONED_QUERIES: ReadonlySet<string> = new Set([
  'subscriptions',
  'subscription',
  'upcomingPayments',
  'spendingSummary',
]);

@Resolver(() => SubscriptionRecordView)
export class SubscriptionResolver {
  /** Loaders live for one request (their caches must not outlive the caller's view of the data). */
  private readonly loaders = new WeakMap<GraphQLContext, Loaders>();

  constructor(private readonly service: SubscriptionService) {}

  private loadersOf(context: GraphQLContext): Loaders {
    let loaders = this.loaders.get(context);
    if (!loaders) this.loaders.set(context, (loaders = this.service.relatedLoaders()));
    return loaders;
  }

  @Query(() => SubscriptionConnection, { description: "The caller's records, a page at a time." })
  async subscriptions(
    @Ctx() context: GraphQLContext,
    @Arg('filter', () => SubscriptionFilter, { nullable: true }) filter?: SubscriptionFilter,
    @Arg('search', () => String, { nullable: true }) search?: string,
    @Arg('orderBy', () => SubscriptionOrder, { nullable: true }) orderBy?: SubscriptionOrder,
    @Arg('first', () => Int, { defaultValue: DEFAULT_LENGTH }) first: number = DEFAULT_LENGTH,
    @Arg('after', () => String, { nullable: true }) after?: string,
  ): Promise<SubscriptionConnection> {
    if (first < 1 || first > MAX_LENGTH) throw AppError.field('first', `The first must be from 1 to ${MAX_LENGTH}.`);
    const start = after ? decodeCursor(after) + 1 : 0;
    const caller = requireCaller(context);
    const query = {
      q: search,
      start,
      // One more than asked tells whether a next page exists.
      length: first + 1,
      sort: orderBy ? [{ field: orderBy.field, direction: orderBy.direction }] : DEFAULT_SORT,
      filters: filter ?? {},
    };
    const { records, total } = await this.service.page(caller, query);
    return { ...pageOf(records, first, start, asRecordView), totalCount: total };
  }

  @Query(() => SubscriptionRecordView)
  async subscription(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.get(requireCaller(context), id));
  }

  @Query(() => [SubscriptionRecordView], {
    description: 'Active records due within the next `days` days, soonest first.',
  })
  async upcomingPayments(
    @Arg('days', () => Int, { defaultValue: 7 }) days: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView[]> {
    return (await this.service.upcoming(requireCaller(context), days)).map(asRecordView);
  }

  @Query(() => [CalendarEntryView])
  async calendar(
    @Ctx() context: GraphQLContext,
    @Arg('from', () => LocalDateScalar, { nullable: true }) from?: string,
    @Arg('to', () => LocalDateScalar, { nullable: true }) to?: string,
  ): Promise<CalendarEntryView[]> {
    const entries = await this.service.calendar(requireCaller(context), from ?? undefined, to ?? undefined);
    return entries.map((entry) => ({ id: entry.id, date: entry.date, subscription: asRecordView(entry.record) }));
  }

  @Mutation(() => SubscriptionRecordView)
  async createSubscription(
    @Arg('input', () => SubscriptionCreateInput) input: SubscriptionCreateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    const patch = toPatch(input);
    if (!patch.product) throw AppError.field('brand_id', 'Give productId or productName.');
    return asRecordView(await this.service.create(requireCaller(context), patch as SubscriptionInput));
  }

  @Mutation(() => SubscriptionRecordView)
  async updateSubscription(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => SubscriptionUpdateInput) input: SubscriptionUpdateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.update(requireCaller(context), id, toPatch(input)));
  }

  @Mutation(() => Boolean, { description: 'Soft delete: restoreSubscription brings it back.' })
  async deleteSubscription(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<boolean> {
    await this.service.remove(requireCaller(context), id);
    return true;
  }

  @Mutation(() => SubscriptionRecordView)
  async restoreSubscription(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.restore(requireCaller(context), id));
  }

  @Mutation(() => SubscriptionRecordView)
  async cancelSubscription(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.cancel(requireCaller(context), id));
  }

  @Mutation(() => SubscriptionRecordView)
  async refundSubscription(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.refund(requireCaller(context), id));
  }

  @Mutation(() => SubscriptionRecordView)
  async addAddon(
    @Arg('subscriptionId', () => Int) subscriptionId: number,
    @Arg('input', () => AddonCreateInput) input: AddonCreateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.addAddon(requireCaller(context), subscriptionId, input));
  }

  @FieldResolver(() => Boolean)
  isAddon(@Root() record: SubscriptionRecordView): boolean {
    return record.sub_addon === 1;
  }

  @FieldResolver(() => ProductSummaryView, { nullable: true })
  async product(
    @Root() record: SubscriptionRecordView,
    @Ctx() context: GraphQLContext,
  ): Promise<ProductSummaryView | null> {
    // A page's read carries the product's summary; other reads batch the products in one statement.
    const carried = record as SubscriptionRecordView & Partial<ProductSummaryColumns>;
    if (carried.product_refund_days !== undefined) {
      return carried.product_refund_days === null
        ? null
        : toProductSummary(productOf(carried as SubscriptionRecordView & ProductSummaryColumns));
    }
    const product = await this.loadersOf(context).products.load(record.product_id);
    return product ? toProductSummary(product) : null;
  }

  // Folder, category and payment mode come joined with the record: no statement, no promise.
  @FieldResolver(() => FolderView, { nullable: true })
  folder(@Root() record: SubscriptionRecordView): FolderView | null {
    return record.folder_id
      ? {
          id: record.folder_id,
          name: record.folder_name!,
          color: record.folder_color,
          isDefault: record.folder_is_default === 1,
        }
      : null;
  }

  @FieldResolver(() => ProductCategoryView, { nullable: true })
  category(@Root() record: SubscriptionRecordView): ProductCategoryView | null {
    if (!record.category_id) return null;
    return {
      id: record.category_id,
      name: record.category_name!,
      userId: record.category_user_id,
      createdAt: toIsoMicros(record.category_created_at)!,
    };
  }

  @FieldResolver(() => PaymentModeView, { nullable: true })
  paymentMode(@Root() record: SubscriptionRecordView): PaymentModeView | null {
    return record.payment_mode_id ? { id: record.payment_mode_id, name: record.payment_mode_name! } : null;
  }

  @FieldResolver(() => [AlertView], {
    description:
      "Its alert definitions; the first is the REST alert_id. None for a household member: a shared record's alerts are its owner's.",
  })
  async alerts(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<AlertView[]> {
    if (!seesAlertSetUp(record, requireCaller(context).userId)) return [];
    return (await this.loadersOf(context).alertsOfSubscription.load(record.id)).map(toAlertView);
  }

  @Mutation(() => SubscriptionRecordView, {
    description: "Sets the record's alert definitions (1 to 10; the first becomes alert_id).",
  })
  async setSubscriptionAlerts(
    @Arg('id', () => Int) id: number,
    @Arg('alertIds', () => [Int]) alertIds: number[],
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    const caller = requireCaller(context);
    await this.service.setAlerts(caller, id, alertIds);
    return asRecordView(await this.service.get(caller, id));
  }

  @FieldResolver(() => [PriceStepView], {
    description: 'Its prices from their dates on, oldest first; one step for a record whose price never changed.',
  })
  async priceHistory(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<PriceStepView[]> {
    const steps = await this.loadersOf(context).priceHistoryOf.load(record.id);
    return stepsOf(record, steps).map((step) => ({
      effectiveFrom: step.effective_from,
      price: step.price,
      currency: record.price_type,
    }));
  }

  @Mutation(() => SubscriptionRecordView, {
    description:
      "A recurring record's price from a date on, kept in priceHistory; price shows the one in effect today.",
  })
  async changePrice(
    @Arg('id', () => Int) id: number,
    @Arg('price') price: string,
    @Arg('effectiveFrom', () => LocalDateScalar) effectiveFrom: string,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.changePrice(requireCaller(context), id, { price, effectiveFrom }));
  }

  @FieldResolver(() => [TagView])
  async tags(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<TagView[]> {
    return (await this.loadersOf(context).tagsOfSubscription.load(record.id)).map(toTagView);
  }
}

/** The product a page's read carries with the record, under its entity's property names. */
function productOf(record: SubscriptionRecordView & ProductSummaryColumns): Product {
  return {
    id: record.product_id,
    owner: record.product_owner_id,
    category: record.product_category_id,
    productName: record.product_product_name,
    brandname: record.product_brandname,
    description: record.product_description,
    url: record.product_url,
    image: record.product_image,
    currencyCode: record.product_currency_code,
    price1Value: record.product_price1_value,
    billingCycle: record.product_billing_cycle,
    billingFrequency: record.product_billing_frequency,
    refundDays: record.product_refund_days,
  } as Product;
}
