/** Topics of outbound webhook events; an endpoint subscribes to some (or, with none, to all). */
export const SUBSCRIPTION_TOPICS = [
  'subscription.created',
  'subscription.updated',
  'subscription.deleted',
  'subscription.canceled',
  'subscription.refunded',
] as const;

/** Reminder topics: an endpoint receives them only when it lists them in its events. */
export const REMINDER_TOPICS = ['subscription.payment_due', 'subscription.refund_due', 'subscription.contract_notice_due'] as const;

export type SubscriptionTopic = (typeof SUBSCRIPTION_TOPICS)[number] | (typeof REMINDER_TOPICS)[number];

export const ALL_TOPICS: readonly string[] = [...SUBSCRIPTION_TOPICS, ...REMINDER_TOPICS];
