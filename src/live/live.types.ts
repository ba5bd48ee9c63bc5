import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

import { Money } from '../platform/graphql/money';
import { LocalDateScalar } from '../platform/graphql/scalars';
import { SubscriptionRecordView } from '../subscriptions/subscription.types';
import { DeliveryStatus } from '../webhooks/delivery.entity';
import { DeliveryView } from '../webhooks/webhooks.resolver';

/** What happened to a record (its outbox topic). */
export enum RecordChangeKind {
  CREATED = 'CREATED',
  UPDATED = 'UPDATED',
  DELETED = 'DELETED',
  CANCELED = 'CANCELED',
  REFUNDED = 'REFUNDED',
}

registerEnumType(RecordChangeKind, {
  name: 'RecordChangeKind',
  description: 'What happened to a record.',
  valuesConfig: {
    CREATED: { description: 'The record (or an add-on) was created.' },
    UPDATED: {
      description: 'The record was changed (by its user, or by the upkeep: expired, a price change applied).',
    },
    DELETED: { description: 'The record was deleted (softly: restoreSubscription brings it back).' },
    CANCELED: { description: 'The record was cancelled.' },
    REFUNDED: { description: 'The record was refunded.' },
  },
});

/** Which date a reminder is about. */
export enum ReminderFiredKind {
  PAYMENT_DUE = 'PAYMENT_DUE',
  REFUND_DUE = 'REFUND_DUE',
  CONTRACT_NOTICE_DUE = 'CONTRACT_NOTICE_DUE',
}

registerEnumType(ReminderFiredKind, {
  name: 'ReminderFiredKind',
  description: 'Which date a reminder that fired is about.',
  valuesConfig: {
    PAYMENT_DUE: { description: 'A payment is due (subscription.payment_due).' },
    REFUND_DUE: { description: 'The refund window ends (subscription.refund_due).' },
    CONTRACT_NOTICE_DUE: { description: 'The last day to cancel a contract (subscription.contract_notice_due).' },
  },
});

@ObjectType('RecordChanged', { description: 'A record the caller may read was created, changed or deleted.' })
export class RecordChangedView {
  @Field(() => RecordChangeKind, { description: 'What happened.' })
  kind!: RecordChangeKind;

  @Field(() => ID, { description: "The record's global id." })
  recordId!: string;

  @Field(() => SubscriptionRecordView, {
    nullable: true,
    description: 'The record as it is now, as the caller sees it; null once it is deleted (or no longer readable).',
  })
  record!: SubscriptionRecordView | null;
}

@ObjectType('DeliveryChanged', {
  description:
    "One of the caller's deliveries (to a webhook endpoint or a notification target) was written or changed status.",
})
export class DeliveryChangedView {
  @Field(() => ID, { description: "The delivery's global id." })
  deliveryId!: string;

  @Field(() => DeliveryStatus, { description: 'Its status when the change was made.' })
  status!: DeliveryStatus;

  @Field(() => DeliveryView, {
    nullable: true,
    description: 'The delivery as the delivery log shows it now, with its attempts; null if it is gone.',
  })
  delivery!: DeliveryView | null;
}

@ObjectType('ReminderFired', { description: "A reminder of one of the caller's records fired." })
export class ReminderFiredView {
  @Field(() => ReminderFiredKind, { description: 'Which date it reminds of.' })
  kind!: ReminderFiredKind;

  @Field(() => ID, { description: "The record's global id." })
  recordId!: string;

  @Field(() => LocalDateScalar, {
    nullable: true,
    description: 'The date reminded of (a payment, the end of a refund window, the last day to cancel).',
  })
  date!: string | null;

  @Field(() => ID, { nullable: true, description: 'The global id of the alert definition that fired it.' })
  alertId!: string | null;

  @Field(() => SubscriptionRecordView, {
    nullable: true,
    description: 'The record as it is now; null if it was deleted meanwhile.',
  })
  record!: SubscriptionRecordView | null;
}

@ObjectType('BudgetExceeded', {
  description:
    "Next month's planned total went over one of the caller's budgets (budget.exceeded), once per budget and month.",
})
export class BudgetExceededView {
  @Field(() => ID, { description: "The budget's global id." })
  budgetId!: string;

  @Field(() => ID, {
    nullable: true,
    description: "The global id of the budget's category; null for the overall budget.",
  })
  categoryId!: string | null;

  @Field(() => String, { nullable: true, description: "The category's name; null for the overall budget." })
  categoryName!: string | null;

  @Field(() => String, { description: 'The month over the budget (YYYY-MM).' })
  month!: string;

  @Field(() => Money, { description: "The budget's amount, in the base currency." })
  amount!: Money;

  @Field(() => Money, { description: "The month's planned total, in the base currency." })
  planned!: Money;

  @Field(() => Money, { description: 'How much the planned total is over the budget.' })
  overBy!: Money;
}
