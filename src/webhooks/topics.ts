/** Topics of outbound webhook events; an endpoint subscribes to some (or, with none, to all). */
export const SUBSCRIPTION_TOPICS = [
  'subscription.created',
  'subscription.updated',
  'subscription.deleted',
  'subscription.canceled',
  'subscription.refunded',
] as const;

export type SubscriptionTopic = (typeof SUBSCRIPTION_TOPICS)[number];

export const ALL_TOPICS: readonly string[] = SUBSCRIPTION_TOPICS;
