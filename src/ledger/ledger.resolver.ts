import { CurrencyResolver } from 'graphql-scalars';
import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, registerEnumType, Resolver } from 'type-graphql';

import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { LocalDateScalar } from '../platform/graphql/scalars';
import type { EntryRow } from './ledger.repository';
import type { LedgerService } from './ledger.service';
import type { EntryStatus } from './payment-entry.entity';

enum PaymentEntryStatus {
  PENDING = 'pending',
  PAID = 'paid',
  SKIPPED = 'skipped',
}
registerEnumType(PaymentEntryStatus, { name: 'PaymentEntryStatus' });

@ObjectType('PaymentEntry', { description: 'One payment a record owes on a date, and what became of it.' })
class PaymentEntryView {
  @Field(() => Int) id!: number;
  @Field(() => Int) subscriptionId!: number;
  @Field() productName!: string;
  @Field(() => LocalDateScalar) dueDate!: string;
  @Field({ description: 'The price the record had on the due date, decimal string' }) expectedAmount!: string;
  @Field(() => CurrencyResolver) currency!: string;
  @Field(() => PaymentEntryStatus) status!: PaymentEntryStatus;
  @Field(() => String, { nullable: true }) paidAmount!: string | null;
  @Field(() => LocalDateScalar, { nullable: true, description: 'The day it was paid' }) paidAt!: string | null;
  @Field(() => String, { nullable: true }) note!: string | null;
}

@InputType()
class PaymentEntryFilter {
  @Field(() => LocalDateScalar, { nullable: true }) from?: string;
  @Field(() => LocalDateScalar, { nullable: true }) to?: string;
  @Field(() => Int, { nullable: true }) subscriptionId?: number;
  @Field(() => PaymentEntryStatus, { nullable: true }) status?: PaymentEntryStatus;
  @Field(() => Int, {
    nullable: true,
    description: 'The entries of the records shared in this household (one you belong to), not your own',
  })
  householdId?: number;
}

const toView = (row: EntryRow): PaymentEntryView => ({
  id: row.id,
  subscriptionId: row.subscription_id,
  productName: row.product_name,
  dueDate: row.due_date,
  expectedAmount: row.expected_amount,
  currency: row.currency,
  status: row.status as PaymentEntryStatus,
  paidAmount: row.paid_amount,
  paidAt: row.paid_on,
  note: row.note,
});

@Resolver()
export class LedgerResolver {
  constructor(private readonly ledger: LedgerService) {}

  @Query(() => [PaymentEntryView], {
    description:
      'Your payment ledger in due-date order (at most 1000 entries): each payment of an Active record through its next one due.',
  })
  async paymentEntries(
    @Ctx() context: GraphQLContext,
    @Arg('filter', () => PaymentEntryFilter, { nullable: true }) filter?: PaymentEntryFilter,
  ): Promise<PaymentEntryView[]> {
    const { from, to, subscriptionId, status, householdId } = filter ?? {};
    const entries = await this.ledger.entries(requireCaller(context), {
      from,
      to,
      subscriptionId,
      status: status as EntryStatus | undefined,
      householdId: householdId ?? undefined,
    });
    return entries.map(toView);
  }

  @Mutation(() => PaymentEntryView, {
    description: "Records a payment: the expected amount, and today in the record's zone, unless given.",
  })
  async markPaid(
    @Arg('entryId', () => Int) entryId: number,
    @Ctx() context: GraphQLContext,
    @Arg('amount', () => String, { nullable: true }) amount?: string | null,
    @Arg('paidAt', () => LocalDateScalar, { nullable: true }) paidAt?: string | null,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
  ): Promise<PaymentEntryView> {
    return toView(await this.ledger.markPaid(requireCaller(context), entryId, { amount, paidAt, note }));
  }

  @Mutation(() => PaymentEntryView, { description: 'Records that a payment was skipped.' })
  async markSkipped(
    @Arg('entryId', () => Int) entryId: number,
    @Ctx() context: GraphQLContext,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
  ): Promise<PaymentEntryView> {
    return toView(await this.ledger.markSkipped(requireCaller(context), entryId, note));
  }
}
