import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';

import { NO_ALERT } from '../alerts/alert.input';
import { AlertView, toAlertView } from '../alerts/alert.resolver';
import type { Product } from '../catalogue/product.entity';
import { ProductView, toProductView } from '../catalogue/product.types';
import { FolderView, PaymentModeView, ProductCategoryView, TagView, toTagView } from '../organizing/organizing.types';
import { AppError } from '../platform/errors';
import { type Page, PageArgs, pageOfList, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, idsOf, optionalIdOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { definedOnly } from '../platform/objects';
import { toIsoMicros } from '../platform/wire-formats';
import { stepsOf } from './price-history';
import type { SubscriptionInput, SubscriptionPatch } from './subscription.input';
import { DEFAULT_LENGTH, DEFAULT_SORT, type ListQuery, MAX_LENGTH } from './subscription.list';
import type { Loaders } from './subscription.loaders';
import { type ProductSummaryColumns, seesAlertSetUp } from './subscription.record';
import type { SubscriptionService } from './subscription.service';
import {
  AddAddonInput,
  asRecordView,
  CalendarEntryView,
  CancelSubscriptionInput,
  ChangePriceInput,
  CreateSubscriptionInput,
  DeleteSubscriptionInput,
  PriceStepConnection,
  PriceStepView,
  RECORD_TYPE_NAME,
  RefundSubscriptionInput,
  RestoreSubscriptionInput,
  SetSubscriptionAlertsInput,
  SubscriptionConnection,
  type SubscriptionFields,
  SubscriptionFilter,
  SubscriptionOrder,
  SubscriptionRecordView,
  UpdateSubscriptionInput,
} from './subscription.types';

/** A record's price steps on a page when neither first nor last is given, and at most. */
const PRICE_STEP_LIMITS = { defaultSize: 100, maxSize: 100 };

/** GraphQL input → the domain input: one of productId or productName names the product; ids are global. */
function toPatch(input: SubscriptionFields): SubscriptionPatch {
  const { productId, productName, folderId, alertId, categoryId, paymentModeId, tagIds, tagNames, ...values } =
    input as SubscriptionFields & { id?: string };
  delete values.id;
  if (productId !== undefined && productName !== undefined)
    throw AppError.field('brand_id', 'Give productId or productName, not both.');
  const patch: SubscriptionPatch = definedOnly(values);
  if (productId !== undefined) patch.product = { id: idOf(productId, 'Product', 'productId') };
  if (productName !== undefined) patch.product = { name: productName };
  if (folderId !== undefined) patch.folderId = optionalIdOf(folderId, 'Folder', 'folderId');
  // null: no alert (the domain's 0); the system default alert is the alert definition of row 1.
  if (alertId !== undefined) patch.alertId = alertId === null ? NO_ALERT : idOf(alertId, 'Alert', 'alertId');
  if (categoryId !== undefined) patch.categoryId = optionalIdOf(categoryId, 'ProductCategory', 'categoryId');
  if (paymentModeId !== undefined) patch.paymentModeId = optionalIdOf(paymentModeId, 'PaymentMode', 'paymentModeId');
  if (tagIds !== undefined || tagNames !== undefined) {
    // The domain takes tag ids as digits and anything else as a name.
    const ids = idsOf(tagIds ?? [], 'Tag', 'tagIds').map(String);
    const names = tagNames ?? [];
    const numeric = names.findIndex((name) => /^\s*\d+\s*$/.test(name));
    if (numeric >= 0)
      throw AppError.field(`tagNames.${numeric}`, 'A tag name cannot be only digits: give tags by id in tagIds.');
    patch.tags = [...ids, ...names];
  }
  return patch;
}

/** The filter's global ids as the list's row ids; "no folder" and "no alert" are the list's 0. */
function toFilters(filter: SubscriptionFilter | null | undefined): ListQuery['filters'] {
  if (!filter) return {};
  const { folderIds, withoutFolder, tagIds, paymentModeIds, alertIds, withoutAlert, categoryIds, ...values } = filter;
  const withNone = (ids: number[] | undefined, none: boolean | undefined) => (none ? [...(ids ?? []), 0] : ids);
  return definedOnly({
    ...values,
    folderIds: withNone(folderIds && idsOf(folderIds, 'Folder', 'filter.folderIds'), withoutFolder ?? undefined),
    alertIds: withNone(alertIds && idsOf(alertIds, 'Alert', 'filter.alertIds'), withoutAlert ?? undefined),
    tagIds: tagIds && idsOf(tagIds, 'Tag', 'filter.tagIds'),
    paymentModeIds: paymentModeIds && idsOf(paymentModeIds, 'PaymentMode', 'filter.paymentModeIds'),
    categoryIds: categoryIds && idsOf(categoryIds, 'ProductCategory', 'filter.categoryIds'),
  }) as ListQuery['filters'];
}

/** The search, filter and order of a page of records (`subscriptions`' arguments) as the list's query. */
export function listQueryOf(args: {
  filter?: SubscriptionFilter | null;
  search?: string | null;
  orderBy?: SubscriptionOrder | null;
}): Omit<ListQuery, 'start' | 'length'> {
  return {
    q: args.search ?? undefined,
    sort: args.orderBy ? [{ field: args.orderBy.field, direction: args.orderBy.direction }] : DEFAULT_SORT,
    filters: toFilters(args.filter),
  };
}

/** The sizes of a page of records. */
export const RECORD_PAGES = { defaultSize: DEFAULT_LENGTH, maxSize: MAX_LENGTH };

const recordId = (id: string) => idOf(id, RECORD_TYPE_NAME);

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

/** `node(id:)` for a record: the caller's own, or one shared in a household they are a member of. */
export function recordNodeLookup(service: SubscriptionService): NodeLookup {
  return async (caller, id) => asRecordView(await service.get(caller, id));
}

const payload = (name: string, description: string) =>
  MutationPayload(`${name}Payload`, 'subscription', () => SubscriptionRecordView, description);
const CreateSubscriptionPayload = payload('CreateSubscription', 'The new record.');
const UpdateSubscriptionPayload = payload('UpdateSubscription', 'The changed record.');
const DeleteSubscriptionPayload = MutationPayload(
  'DeleteSubscriptionPayload',
  'deletedSubscriptionId',
  () => ID,
  'The deleted record.',
);
const RestoreSubscriptionPayload = payload('RestoreSubscription', 'The record brought back.');
const CancelSubscriptionPayload = payload('CancelSubscription', 'The cancelled record.');
const RefundSubscriptionPayload = payload('RefundSubscription', 'The refunded record.');
const AddAddonPayload = payload('AddAddon', 'The new add-on.');
const SetSubscriptionAlertsPayload = payload('SetSubscriptionAlerts', 'The record with its alerts.');
const ChangePricePayload = payload('ChangePrice', 'The record, its price the one in effect today.');

type RecordPayload = { subscription: SubscriptionRecordView };

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

  @Query(() => SubscriptionConnection, {
    description: `Your records, ${DEFAULT_LENGTH} a page unless first or last says otherwise (at most ${MAX_LENGTH}).`,
  })
  async subscriptions(
    @Ctx() context: GraphQLContext,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('filter', () => SubscriptionFilter, { nullable: true, description: 'Which records; all when left out.' })
    filter?: SubscriptionFilter | null,
    @Arg('search', () => String, {
      nullable: true,
      description: 'Text the product name, brand, description or note contains.',
    })
    search?: string | null,
    @Arg('orderBy', () => SubscriptionOrder, {
      nullable: true,
      description: 'The order; by payment date, earliest first, when left out.',
    })
    orderBy?: SubscriptionOrder | null,
  ): Promise<Page<SubscriptionRecordView>> {
    const caller = requireCaller(context);
    const query = listQueryOf({ filter, search, orderBy });
    return readPage(
      page,
      RECORD_PAGES,
      async (offset, limit) => {
        // A page of none (`last` asks the size first) reads one row: the count comes with the rows.
        const { records, total } = await this.service.page(caller, {
          ...query,
          start: offset,
          length: Math.max(limit, 1),
        });
        return { rows: records, total };
      },
      asRecordView,
    );
  }

  @Query(() => SubscriptionRecordView, {
    description: 'One of your records, or one shared with you in a household.',
  })
  async subscription(
    @Arg('id', () => ID, { description: 'The record (global id).' }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView> {
    return asRecordView(await this.service.get(requireCaller(context), recordId(id)));
  }

  @Query(() => [SubscriptionRecordView], {
    description: 'Your Active records due within the next `days` days, soonest first (a list: the days bound it).',
  })
  async upcomingPayments(
    @Arg('days', () => Int, { defaultValue: 7, description: 'How many days ahead, from today; 7 when left out.' })
    days: number,
    @Ctx() context: GraphQLContext,
  ): Promise<SubscriptionRecordView[]> {
    return (await this.service.upcoming(requireCaller(context), days)).map(asRecordView);
  }

  @Query(() => [CalendarEntryView], {
    description: 'Every payment date of your Active records within a range, in date order.',
  })
  async calendar(
    @Ctx() context: GraphQLContext,
    @Arg('from', () => LocalDateScalar, {
      nullable: true,
      description: 'The first day; the first of the current month when left out.',
    })
    from?: string | null,
    @Arg('to', () => LocalDateScalar, {
      nullable: true,
      description: "The last day; the end of from's month when left out.",
    })
    to?: string | null,
  ): Promise<CalendarEntryView[]> {
    const entries = await this.service.calendar(requireCaller(context), from ?? undefined, to ?? undefined);
    return entries.map((entry) => ({
      key: String(entry.id),
      date: entry.date,
      subscription: asRecordView(entry.record),
    }));
  }

  @Mutation(() => CreateSubscriptionPayload, { description: 'Makes a record.' })
  async createSubscription(
    @Arg('input', () => CreateSubscriptionInput, { description: 'The new record.' }) input: CreateSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    const patch = toPatch(input);
    if (!patch.product) throw AppError.field('brand_id', 'Give productId or productName.');
    return {
      subscription: asRecordView(await this.service.create(requireCaller(context), patch as SubscriptionInput)),
    };
  }

  @Mutation(() => UpdateSubscriptionPayload, { description: 'Changes a record.' })
  async updateSubscription(
    @Arg('input', () => UpdateSubscriptionInput, { description: 'The record and its changes.' })
    input: UpdateSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    const id = recordId(input.id);
    return { subscription: asRecordView(await this.service.update(requireCaller(context), id, toPatch(input))) };
  }

  @Mutation(() => DeleteSubscriptionPayload, {
    description: 'Deletes a record and its add-ons, softly: restoreSubscription brings them back.',
  })
  async deleteSubscription(
    @Arg('input', () => DeleteSubscriptionInput, { description: 'The record to delete.' })
    input: DeleteSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ deletedSubscriptionId: string }> {
    await this.service.remove(requireCaller(context), recordId(input.id));
    return { deletedSubscriptionId: input.id };
  }

  @Mutation(() => RestoreSubscriptionPayload, { description: 'Brings a deleted record back.' })
  async restoreSubscription(
    @Arg('input', () => RestoreSubscriptionInput, { description: 'The record to bring back.' })
    input: RestoreSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    return { subscription: asRecordView(await this.service.restore(requireCaller(context), recordId(input.id))) };
  }

  @Mutation(() => CancelSubscriptionPayload, { description: 'Cancels a record: no more payments fall due.' })
  async cancelSubscription(
    @Arg('input', () => CancelSubscriptionInput, { description: 'The record to cancel.' })
    input: CancelSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    return { subscription: asRecordView(await this.service.cancel(requireCaller(context), recordId(input.id))) };
  }

  @Mutation(() => RefundSubscriptionPayload, { description: 'Marks a record refunded.' })
  async refundSubscription(
    @Arg('input', () => RefundSubscriptionInput, { description: 'The record refunded.' })
    input: RefundSubscriptionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    return { subscription: asRecordView(await this.service.refund(requireCaller(context), recordId(input.id))) };
  }

  @Mutation(() => AddAddonPayload, { description: 'Adds an add-on to a record.' })
  async addAddon(
    @Arg('input', () => AddAddonInput, { description: 'The main record and the add-on.' }) input: AddAddonInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    const { mainRecordId, ...addon } = input;
    const mainId = idOf(mainRecordId, RECORD_TYPE_NAME, 'mainRecordId');
    return { subscription: asRecordView(await this.service.addAddon(requireCaller(context), mainId, addon)) };
  }

  @Mutation(() => SetSubscriptionAlertsPayload, {
    description: "Sets a record's alert definitions (1 to 10), which remind you of its dates.",
  })
  async setSubscriptionAlerts(
    @Arg('input', () => SetSubscriptionAlertsInput, { description: 'The record and its alert definitions.' })
    input: SetSubscriptionAlertsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    const caller = requireCaller(context);
    const id = recordId(input.id);
    try {
      await this.service.setAlerts(caller, id, idsOf(input.alertIds, 'Alert', 'alertIds'));
    } catch (error) {
      // The domain names the list alert_id (REST's one alert) when one of it is not usable.
      if (!(error instanceof AppError) || !error.fieldErrors?.alert_id) throw error;
      const { alert_id: messages, ...others } = error.fieldErrors;
      throw new AppError(error.code, error.message, { ...others, alertIds: messages });
    }
    return { subscription: asRecordView(await this.service.get(caller, id)) };
  }

  @Mutation(() => ChangePricePayload, {
    description:
      "A recurring record's price from a date on, kept in priceHistory; price shows the one in effect today.",
  })
  async changePrice(
    @Arg('input', () => ChangePriceInput, { description: 'The record, its new price and the day it takes effect.' })
    input: ChangePriceInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RecordPayload> {
    const change = { price: input.price, effectiveFrom: input.effectiveFrom };
    const changed = await this.service.changePrice(requireCaller(context), recordId(input.id), change);
    return { subscription: asRecordView(changed) };
  }

  @FieldResolver(() => Boolean, { description: 'Whether it is an add-on of another record (see mainRecordId).' })
  isAddon(@Root() record: SubscriptionRecordView): boolean {
    return record.sub_addon === 1;
  }

  @FieldResolver(() => ProductView, { nullable: true, description: 'Its product; null when the product is gone.' })
  async product(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<ProductView | null> {
    // A page's read carries the product's summary; other reads batch the products in one statement.
    const carried = record as SubscriptionRecordView & Partial<ProductSummaryColumns>;
    if (carried.product_refund_days !== undefined) {
      return carried.product_refund_days === null
        ? null
        : toProductView(productOf(carried as SubscriptionRecordView & ProductSummaryColumns));
    }
    const product = await this.loadersOf(context).products.load(record.product_id);
    return product ? toProductView(product) : null;
  }

  // Folder, category and payment mode come joined with the record: no statement, no promise.
  @FieldResolver(() => FolderView, { nullable: true, description: 'The folder it is in; null when none.' })
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

  @FieldResolver(() => ProductCategoryView, { nullable: true, description: 'Its category; null when none.' })
  category(@Root() record: SubscriptionRecordView): ProductCategoryView | null {
    if (!record.category_id) return null;
    return {
      id: record.category_id,
      name: record.category_name!,
      isGlobal: record.category_user_id === null,
      createdAt: toIsoMicros(record.category_created_at)!,
    };
  }

  @FieldResolver(() => PaymentModeView, { nullable: true, description: 'How it is paid; null when unset.' })
  paymentMode(@Root() record: SubscriptionRecordView): PaymentModeView | null {
    return record.payment_mode_id ? { id: record.payment_mode_id, name: record.payment_mode_name! } : null;
  }

  @FieldResolver(() => [AlertView], {
    description: `Its alert definitions, its main one first; none when it has no alert (the system default alert when it was made without naming one). None for a household member: a shared record's alerts are its owner's.`,
  })
  async alerts(@Root() record: SubscriptionRecordView, @Ctx() context: GraphQLContext): Promise<AlertView[]> {
    if (!seesAlertSetUp(record, requireCaller(context).userId)) return [];
    return (await this.loadersOf(context).alertsOfSubscription.load(record.id)).map(toAlertView);
  }

  @FieldResolver(() => PriceStepConnection, {
    description: `Its prices from their dates on, oldest first, ${PRICE_STEP_LIMITS.defaultSize} a page at most; one step for a record whose price never changed.`,
  })
  async priceHistory(
    @Root() record: SubscriptionRecordView,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<Page<PriceStepView>> {
    const steps = await this.loadersOf(context).priceHistoryOf.load(record.id);
    return pageOfList(stepsOf(record, steps), page, PRICE_STEP_LIMITS, (step) => ({
      effectiveFrom: step.effective_from,
      price: { amount: step.price, currency: record.price_type },
    }));
  }

  @FieldResolver(() => [TagView], { description: 'Its tags.' })
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
    productType: record.product_product_type,
    description: record.product_description,
    url: record.product_url,
    image: record.product_image,
    currencyCode: record.product_currency_code,
    price1Value: record.product_price1_value,
    billingCycle: record.product_billing_cycle,
    billingFrequency: record.product_billing_frequency,
    refundDays: record.product_refund_days,
    logoHash: record.product_logo_hash,
  } as Product;
}
