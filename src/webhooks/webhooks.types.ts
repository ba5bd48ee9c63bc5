import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

import { Connection } from '../platform/graphql/connection';
import { toGlobalId } from '../platform/graphql/global-ids';
import { Node } from '../platform/graphql/node';
import { toIsoMicros } from '../platform/wire-formats';
import { DeliveryStatus } from './delivery.entity';
import type { AttemptRow, DeliveryRow } from './delivery-log.service';
import type { WebhookEndpoint } from './endpoint.entity';
import { InboundTokenKind, type InboundWebhookToken } from './inbound-token.entity';

/**
 * The topics of events as a GraphQL enum: names in UPPER_SNAKE_CASE, internal values the topic names the
 * service, the database and the webhook-event header use ('subscription.created'), so resolvers keep them.
 */
export const WebhookTopicValue = {
  SUBSCRIPTION_CREATED: 'subscription.created',
  SUBSCRIPTION_UPDATED: 'subscription.updated',
  SUBSCRIPTION_DELETED: 'subscription.deleted',
  SUBSCRIPTION_CANCELED: 'subscription.canceled',
  SUBSCRIPTION_REFUNDED: 'subscription.refunded',
  SUBSCRIPTION_PAYMENT_DUE: 'subscription.payment_due',
  SUBSCRIPTION_REFUND_DUE: 'subscription.refund_due',
  SUBSCRIPTION_CONTRACT_NOTICE_DUE: 'subscription.contract_notice_due',
  BUDGET_EXCEEDED: 'budget.exceeded',
  NOTIFICATION_TEST: 'notification.test',
} as const;
export type WebhookTopicValue = (typeof WebhookTopicValue)[keyof typeof WebhookTopicValue];

registerEnumType(WebhookTopicValue, {
  name: 'WebhookTopic',
  description: 'What an event is about: the topic a delivery carries in its x-<service>-webhook-event header.',
  valuesConfig: {
    SUBSCRIPTION_CREATED: { description: 'A record was made (subscription.created).' },
    SUBSCRIPTION_UPDATED: { description: 'A record was changed (subscription.updated).' },
    SUBSCRIPTION_DELETED: { description: 'A record was deleted (subscription.deleted).' },
    SUBSCRIPTION_CANCELED: { description: 'A record was cancelled (subscription.canceled).' },
    SUBSCRIPTION_REFUNDED: { description: 'A record was refunded (subscription.refunded).' },
    SUBSCRIPTION_PAYMENT_DUE: {
      description: 'A payment reminder (subscription.payment_due); sent only to endpoints that list it.',
    },
    SUBSCRIPTION_REFUND_DUE: {
      description: 'A refund-deadline reminder (subscription.refund_due); sent only to endpoints that list it.',
    },
    SUBSCRIPTION_CONTRACT_NOTICE_DUE: {
      description:
        'The last day to give notice on a contract is near (subscription.contract_notice_due); sent only to endpoints that list it.',
    },
    BUDGET_EXCEEDED: {
      description:
        "Next month's planned total is over a budget (budget.exceeded); sent only to endpoints that list it.",
    },
    NOTIFICATION_TEST: {
      description:
        'A test message to a notification target (notification.test); never sent to webhook endpoints, which cannot list it.',
    },
  },
});

registerEnumType(DeliveryStatus, {
  name: 'DeliveryStatus',
  description: 'Where a delivery is: on its way, or finished one way or the other.',
  valuesConfig: {
    PENDING: { description: 'Not done yet: an attempt is due at nextAttemptAt (or under way).' },
    SUCCEEDED: { description: 'An attempt succeeded (a 2xx answer, or an e-mail handed to the SMTP server).' },
    FAILED: {
      description: 'Given up: every attempt on the retry schedule failed, or the receiver answered 410 Gone.',
    },
  },
});

registerEnumType(InboundTokenKind, {
  name: 'InboundTokenKind',
  description: 'What an inbound webhook token may do to your records.',
  valuesConfig: {
    CREATE: { description: 'Only creates records (the created event).' },
    MANAGE: { description: 'Updates, deletes, refunds and cancels records (every event but created).' },
  },
});

// Object types with an id implement Node: `id` (the global id) and `legacyId` come from the row id.
@ObjectType('WebhookEndpoint', {
  implements: Node,
  description: 'A URL of yours that your events are delivered to, signed with its secret.',
})
export class WebhookEndpointView {
  id!: number;
  @Field({ description: 'The http(s) URL deliveries are POSTed to.' }) url!: string;
  @Field(() => [WebhookTopicValue], {
    description:
      'The topics delivered to it; empty means the five change topics (SUBSCRIPTION_CREATED, _UPDATED, _DELETED, _CANCELED, _REFUNDED): reminder and budget topics must be listed.',
  })
  events!: WebhookTopicValue[];
  @Field({ description: 'Whether it gets new deliveries (a disabled endpoint gets none).' }) enabled!: boolean;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
}

@ObjectType('InboundWebhookToken', {
  implements: Node,
  description:
    'A token that addresses the inbound webhook path /webhook/user/data/<token>; only its SHA-256 is kept, so the token itself is shown once, when made.',
})
export class InboundTokenView {
  id!: number;
  @Field(() => InboundTokenKind, { description: 'What it may do.' }) kind!: InboundTokenKind;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When it was last used; null if never.' })
  lastUsedAt!: string | null;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When it was revoked; null while it works.' })
  revokedAt!: string | null;
}

@ObjectType('WebhookDeliveryAttempt', { implements: Node, description: 'One HTTP attempt (or e-mail) of a delivery.' })
export class DeliveryAttemptView {
  id!: number;
  @Field(() => Int, { description: 'Its number among the attempts of its delivery, from 1.' }) attemptNumber!: number;
  @Field(() => Int, {
    nullable: true,
    description: "The receiver's HTTP status code; null when none came (a timeout, a refused address, an e-mail).",
  })
  statusCode!: number | null;
  @Field(() => Int, { description: 'How long it took, in milliseconds.' }) durationMs!: number;
  @Field(() => String, { nullable: true, description: 'The first 1 KB of the answer; null when none came.' })
  responseExcerpt!: string | null;
  @Field(() => String, { nullable: true, description: 'Why it failed without an answer; null otherwise.' })
  error!: string | null;
  @Field(() => DateTimeResolver, { description: 'When it was made.' }) createdAt!: string;
}

@ObjectType('WebhookDelivery', {
  implements: Node,
  description: 'One event on its way to one webhook endpoint, or (a reminder or test) to one notification target.',
})
export class DeliveryView {
  id!: number;
  @Field({ description: 'The webhook-id header (evt_…): the same on every attempt, so a receiver can skip repeats.' })
  eventId!: string;
  @Field(() => WebhookTopicValue, { description: 'What the event is about.' }) topic!: WebhookTopicValue;
  @Field(() => ID, {
    nullable: true,
    description: 'The webhook endpoint it goes to; null for a delivery to a notification target.',
  })
  endpointId!: string | null;
  @Field(() => ID, {
    nullable: true,
    description: "The notification target it goes to (a reminder's or a test); null for a webhook endpoint.",
  })
  targetId!: string | null;
  @Field(() => DeliveryStatus, { description: 'Where it is.' }) status!: DeliveryStatus;
  @Field(() => Int, { description: 'How many attempts were made.' }) attemptCount!: number;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When the next attempt is due; null when finished.' })
  nextAttemptAt!: string | null;
  @Field(() => DateTimeResolver, { description: 'When the event was queued for this receiver.' }) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true, description: 'When it finished; null while pending.' })
  completedAt!: string | null;
  @Field(() => [DeliveryAttemptView], { description: 'Its attempts, first first (at most eight).' })
  attempts!: DeliveryAttemptView[];
}

@ObjectType('WebhookDeliveryConnection', { description: 'A page of deliveries, newest first.' })
export class DeliveryConnection extends Connection('WebhookDelivery', DeliveryView) {}

// Base inputs: each mutation's input type is a named subclass (webhooks.resolver.ts).
/** The id of a webhook endpoint and nothing else. */
@InputType()
export abstract class EndpointIdInput {
  @Field(() => ID, { description: 'The webhook endpoint.' }) id!: string;
}

export const toEndpointView = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events as WebhookTopicValue[],
  enabled: endpoint.enabled,
  createdAt: toIsoMicros(endpoint.createdAt)!,
});

export const toTokenView = (token: InboundWebhookToken): InboundTokenView => ({
  id: token.id,
  kind: token.kind,
  createdAt: toIsoMicros(token.createdAt)!,
  lastUsedAt: toIsoMicros(token.lastUsedAt ?? null),
  revokedAt: toIsoMicros(token.revokedAt ?? null),
});

export const toAttemptView = (attempt: AttemptRow): DeliveryAttemptView => ({
  id: attempt.id,
  attemptNumber: attempt.attempt_number,
  statusCode: attempt.status_code,
  durationMs: attempt.duration_ms,
  responseExcerpt: attempt.response_excerpt,
  error: attempt.error,
  createdAt: toIsoMicros(attempt.created_at)!,
});

/** A delivery of the log with its attempts (any of the log's: those of this delivery are taken), as GraphQL answers it. */
export function toDeliveryView(row: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    topic: row.topic as WebhookTopicValue,
    endpointId: row.endpoint_id === null ? null : toGlobalId('WebhookEndpoint', row.endpoint_id),
    targetId: row.target_id === null ? null : toGlobalId('NotificationTarget', row.target_id),
    status: row.status as DeliveryStatus,
    attemptCount: row.attempt_count,
    nextAttemptAt: toIsoMicros(row.next_attempt_at),
    createdAt: toIsoMicros(row.created_at)!,
    completedAt: toIsoMicros(row.completed_at),
    attempts: attempts.filter((attempt) => attempt.delivery_id === row.id).map(toAttemptView),
  };
}
