/** Topics of outbound webhook events; an endpoint subscribes to some (or, with none, to all of these). */
export const SUBSCRIPTION_TOPICS = [
  'subscription.created',
  'subscription.updated',
  'subscription.deleted',
  'subscription.canceled',
  'subscription.refunded',
] as const;

/** Reminder topics: an endpoint receives them only when it lists them in its events. */
export const REMINDER_TOPICS = [
  'subscription.payment_due',
  'subscription.refund_due',
  'subscription.contract_notice_due',
] as const;

/** A budget warning (next month's planned total over a budget): like reminders, only to endpoints that list it. */
export const BUDGET_TOPICS = ['budget.exceeded'] as const;

export type SubscriptionTopic = (typeof SUBSCRIPTION_TOPICS)[number] | (typeof REMINDER_TOPICS)[number];

/** Every topic an event may have. */
export type WebhookTopic = SubscriptionTopic | (typeof BUDGET_TOPICS)[number];

export const ALL_TOPICS: readonly string[] = [...SUBSCRIPTION_TOPICS, ...REMINDER_TOPICS, ...BUDGET_TOPICS];
