import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

import { Money } from '../platform/graphql/money';
import { Node } from '../platform/graphql/node';
import { LocalDateScalar } from '../platform/graphql/scalars';

/** What became of a payment entry; the values are the ledger's own states. */
export enum PaymentEntryStatus {
  PENDING = 'pending',
  PAID = 'paid',
  SKIPPED = 'skipped',
}
registerEnumType(PaymentEntryStatus, {
  name: 'PaymentEntryStatus',
  description: 'What became of a payment the ledger holds.',
  valuesConfig: {
    PENDING: { description: 'Not settled yet: due, or still to come (it follows the record while not due).' },
    PAID: { description: 'Paid: paidAmount on paidAt.' },
    SKIPPED: { description: 'Not paid, and not owed any more.' },
  },
});

@ObjectType('PaymentEntry', {
  implements: Node,
  description: 'One payment a record owes on a date, and what became of it.',
})
export class PaymentEntryView {
  id!: number;
  @Field(() => ID, { description: 'The record it is a payment of (a SubscriptionRecord id).' })
  subscriptionId!: string;
  @Field({ description: "The record's name." }) productName!: string;
  @Field(() => LocalDateScalar, { description: 'The day it falls due.' }) dueDate!: string;
  @Field(() => Money, { description: 'The price the record had on the due date, in its currency.' })
  expectedAmount!: Money;
  @Field(() => PaymentEntryStatus, { description: 'Pending, paid or skipped.' }) status!: PaymentEntryStatus;
  @Field(() => Money, { nullable: true, description: 'What was paid (PAID only), in the currency of the entry.' })
  paidAmount!: Money | null;
  @Field(() => LocalDateScalar, { nullable: true, description: 'The day it was paid (PAID only).' })
  paidAt!: string | null;
  @Field(() => String, { nullable: true, description: 'A note on what became of it.' }) note!: string | null;
}
