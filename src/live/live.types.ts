import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';

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

  @Field(() => Int, { description: "The record's id." })
  recordId!: number;

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
  @Field(() => Int, { description: "The delivery's id." })
  deliveryId!: number;

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

  @Field(() => Int, { description: "The record's id." })
  recordId!: number;

  @Field(() => LocalDateScalar, {
    nullable: true,
    description: 'The date reminded of (a payment, the end of a refund window, the last day to cancel).',
  })
  date!: string | null;

  @Field(() => Int, { nullable: true, description: 'The alert definition that fired it.' })
  alertId!: number | null;

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
  @Field(() => Int, { description: 'The budget.' })
  budgetId!: number;

  @Field(() => Int, { nullable: true, description: "The budget's category; null for the overall budget." })
  categoryId!: number | null;

  @Field(() => String, { nullable: true, description: "The category's name; null for the overall budget." })
  categoryName!: string | null;

  @Field(() => String, { description: 'The month over the budget (YYYY-MM).' })
  month!: string;

  @Field(() => String, { description: "The budget's amount, a decimal string in the base currency." })
  amount!: string;

  @Field(() => String, { description: "The month's planned total, a decimal string." })
  planned!: string;

  @Field(() => String, { description: 'How much the planned total is over the budget, a decimal string.' })
  overBy!: string;

  @Field(() => String, { description: 'The currency of the amounts (the base currency).' })
  currency!: string;
}
