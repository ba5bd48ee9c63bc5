import { Arg, Args, Ctx, Field, ID, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';

import { Connection, type Page, PageArgs, type PageRead, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, optionalIdOf, toGlobalId } from '../platform/graphql/global-ids';
import { DecimalScalar, money } from '../platform/graphql/money';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { LocalDateScalar } from '../platform/graphql/scalars';
import type { EntryRow } from './ledger.repository';
import { type LedgerService, MAX_ENTRIES } from './ledger.service';
import { PaymentEntryStatus, PaymentEntryView } from './ledger.types';

export const toPaymentEntryView = (row: EntryRow): PaymentEntryView => ({
  id: row.id,
  subscriptionId: toGlobalId('SubscriptionRecord', row.subscription_id),
  productName: row.product_name,
  dueDate: row.due_date,
  expectedAmount: money(row.expected_amount, row.currency),
  status: row.status as PaymentEntryStatus,
  paidAmount: money(row.paid_amount, row.currency),
  paidAt: row.paid_on,
  note: row.note,
});

/** `node(id:)` for a payment entry: the caller's own, or one of a record shared in their household. */
export const paymentEntryLookup =
  (ledger: LedgerService): NodeLookup =>
  async (caller, id) =>
    toPaymentEntryView(await ledger.entry(caller, id));

@ObjectType('PaymentEntryConnection', { description: 'A page of payment entries, in due-date order.' })
class PaymentEntryConnection extends Connection('PaymentEntry', PaymentEntryView) {}

@InputType('PaymentEntryFilter', { description: 'Which payment entries to list; every condition given must hold.' })
class PaymentEntryFilter {
  @Field(() => LocalDateScalar, { nullable: true, description: 'Only entries due on or after this day.' })
  from?: string;
  @Field(() => LocalDateScalar, { nullable: true, description: 'Only entries due on or before this day.' })
  to?: string;
  @Field(() => ID, { nullable: true, description: "Only this record's entries (a SubscriptionRecord id)." })
  subscriptionId?: string | null;
  @Field(() => PaymentEntryStatus, { nullable: true, description: 'Only entries in this state.' })
  status?: PaymentEntryStatus;
  @Field(() => ID, {
    nullable: true,
    description: 'The entries of the records shared in this household (one you belong to), not your own.',
  })
  householdId?: string | null;
}

/** The entry a settling mutation names; each mutation's input subclasses it under its own name. */
@InputType()
abstract class EntryIdInput {
  @Field(() => ID, { description: 'The payment entry.' }) id!: string;
  @Field(() => String, {
    nullable: true,
    description: 'A note on what became of it (at most 1000 characters); left out, the note stays.',
  })
  note?: string | null;
}

@InputType('MarkPaidInput', { description: 'A payment made: how much and when, by default as expected and today.' })
class MarkPaidInput extends EntryIdInput {
  @Field(() => DecimalScalar, {
    nullable: true,
    description: "What was paid, in the entry's currency (at most 2 decimals); left out, the expected amount.",
  })
  amount?: string | null;
  @Field(() => LocalDateScalar, {
    nullable: true,
    description: "The day it was paid; left out, today in the record's time zone.",
  })
  paidAt?: string | null;
}

@InputType('MarkSkippedInput', { description: 'A payment that was not made and is not owed any more.' })
class MarkSkippedInput extends EntryIdInput {}

const MarkPaidPayload = MutationPayload(
  'MarkPaidPayload',
  'paymentEntry',
  () => PaymentEntryView,
  'The entry, now paid.',
);
const MarkSkippedPayload = MutationPayload(
  'MarkSkippedPayload',
  'paymentEntry',
  () => PaymentEntryView,
  'The entry, now skipped.',
);

@Resolver()
export class LedgerResolver {
  constructor(private readonly ledger: LedgerService) {}

  @Query(() => PaymentEntryConnection, {
    description: `Your payment ledger in due-date order: each payment of an Active record through its next one due. Pages of ${MAX_ENTRIES} entries unless first or last says otherwise (at most ${MAX_ENTRIES}).`,
  })
  async paymentEntries(
    @Ctx() context: GraphQLContext,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('filter', () => PaymentEntryFilter, { nullable: true, description: 'Which entries; all when left out.' })
    filter?: PaymentEntryFilter | null,
  ): Promise<Page<PaymentEntryView>> {
    const { from, to, subscriptionId, status, householdId } = filter ?? {};
    const caller = requireCaller(context);
    const entries = {
      from: from ?? undefined,
      to: to ?? undefined,
      subscriptionId: optionalIdOf(subscriptionId, 'SubscriptionRecord', 'filter.subscriptionId') ?? undefined,
      status: status ?? undefined,
      householdId: optionalIdOf(householdId, 'Household', 'filter.householdId') ?? undefined,
    };
    // The reader (which brings the ledger up to date) is made at the first read: readPage checks the page's
    // arguments before it, so a refused page writes nothing.
    let read: PageRead<EntryRow> | undefined;
    const readOnce: PageRead<EntryRow> = async (offset, limit) => {
      read ??= await this.ledger.entryPages(caller, entries);
      return read(offset, limit);
    };
    return readPage(page, { defaultSize: MAX_ENTRIES, maxSize: MAX_ENTRIES }, readOnce, toPaymentEntryView);
  }

  @Mutation(() => MarkPaidPayload, {
    description: "Records a payment: the expected amount, and today in the record's zone, unless given.",
  })
  async markPaid(
    @Arg('input', () => MarkPaidInput, { description: 'The entry and the payment.' }) input: MarkPaidInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ paymentEntry: PaymentEntryView }> {
    const { amount, paidAt, note } = input;
    const row = await this.ledger.markPaid(requireCaller(context), idOf(input.id, 'PaymentEntry'), {
      amount,
      paidAt,
      note,
    });
    return { paymentEntry: toPaymentEntryView(row) };
  }

  @Mutation(() => MarkSkippedPayload, { description: 'Records that a payment was skipped.' })
  async markSkipped(
    @Arg('input', () => MarkSkippedInput, { description: 'The entry skipped.' }) input: MarkSkippedInput,
    @Ctx() context: GraphQLContext,
  ): Promise<{ paymentEntry: PaymentEntryView }> {
    const row = await this.ledger.markSkipped(requireCaller(context), idOf(input.id, 'PaymentEntry'), input.note);
    return { paymentEntry: toPaymentEntryView(row) };
  }
}
