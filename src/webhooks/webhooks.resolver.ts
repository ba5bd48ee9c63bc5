import { DateTimeResolver } from 'graphql-scalars';
import {
  Arg,
  Ctx,
  Field,
  ID,
  InputType,
  Int,
  Mutation,
  ObjectType,
  Query,
  registerEnumType,
  Resolver,
} from 'type-graphql';

import { AppError } from '../platform/errors';
import { Connection, pageOf } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { decodeCursor } from '../platform/graphql/cursors';
import { toIsoMicros } from '../platform/wire-formats';
import { DeliveryStatus } from './delivery.entity';
import type { AttemptRow, DeliveryLogService, DeliveryRow } from './delivery-log.service';
import type { WebhookEndpoint } from './endpoint.entity';
import type { WebhookEndpointService } from './endpoint.service';
import { InboundTokenKind, type InboundWebhookToken } from './inbound-token.entity';
import type { InboundTokenService } from './inbound-token.service';

registerEnumType(InboundTokenKind, {
  name: 'InboundTokenKind',
  description: 'CREATE tokens only create; MANAGE tokens update, delete, refund and cancel',
});
registerEnumType(DeliveryStatus, { name: 'DeliveryStatus' });

@ObjectType('WebhookEndpoint')
class WebhookEndpointView {
  @Field(() => Int) id!: number;
  @Field() url!: string;
  @Field(() => [String], {
    description: 'Topics delivered; empty means the five change topics (payment_due and refund_due must be listed)',
  })
  events!: string[];
  @Field() enabled!: boolean;
  @Field(() => DateTimeResolver) createdAt!: string;
}

@ObjectType('WebhookEndpointWithSecret', { description: 'An endpoint with its signing secret, shown this once.' })
class WebhookEndpointWithSecretView extends WebhookEndpointView {
  @Field({ description: 'whsec_ + base64; signs webhook-signature' }) secret!: string;
}

@InputType()
class WebhookEndpointInput {
  @Field() url!: string;
  @Field(() => [String], { defaultValue: [] }) events!: string[];
}

@InputType()
class WebhookEndpointUpdateInput {
  @Field(() => String, { nullable: true }) url?: string;
  @Field(() => [String], { nullable: true }) events?: string[];
}

@ObjectType('InboundWebhookToken')
class InboundTokenView {
  @Field(() => Int) id!: number;
  @Field(() => InboundTokenKind) kind!: InboundTokenKind;
  @Field(() => DateTimeResolver) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true }) lastUsedAt!: string | null;
  @Field(() => DateTimeResolver, { nullable: true }) revokedAt!: string | null;
}

@ObjectType('NewInboundWebhookToken', {
  description: 'The token goes into /webhook/user/data/<token>; it is shown this once.',
})
class NewInboundTokenView {
  @Field(() => Int) id!: number;
  @Field() token!: string;
  @Field(() => InboundTokenKind) kind!: InboundTokenKind;
  @Field(() => DateTimeResolver) createdAt!: string;
}

@ObjectType('DeliveryAttempt')
class DeliveryAttemptView {
  @Field(() => Int) attemptNumber!: number;
  @Field(() => Int, { nullable: true }) statusCode!: number | null;
  @Field(() => Int) durationMs!: number;
  @Field(() => String, { nullable: true, description: 'The first 1 KB of the answer' }) responseExcerpt!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => DateTimeResolver) createdAt!: string;
}

@ObjectType('WebhookDelivery')
export class DeliveryView {
  @Field(() => Int) id!: number;
  @Field(() => ID, { description: 'The webhook-id header, the same on every attempt' }) eventId!: string;
  @Field() topic!: string;
  @Field(() => Int, {
    nullable: true,
    description: 'The webhook endpoint; null for a delivery to a notification target',
  })
  endpointId!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: "The notification target (a reminder's delivery); null for a webhook endpoint",
  })
  targetId!: number | null;
  @Field(() => DeliveryStatus) status!: DeliveryStatus;
  @Field(() => Int) attemptCount!: number;
  @Field(() => DateTimeResolver, { nullable: true }) nextAttemptAt!: string | null;
  @Field(() => DateTimeResolver) createdAt!: string;
  @Field(() => DateTimeResolver, { nullable: true }) completedAt!: string | null;
  @Field(() => [DeliveryAttemptView]) attempts!: DeliveryAttemptView[];
}

@ObjectType('WebhookDeliveryConnection')
class DeliveryConnection extends Connection('WebhookDelivery', DeliveryView) {}

const toEndpointView = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  enabled: endpoint.enabled,
  createdAt: toIsoMicros(endpoint.createdAt)!,
});

const toTokenView = (token: InboundWebhookToken): InboundTokenView => ({
  id: token.id,
  kind: token.kind,
  createdAt: toIsoMicros(token.createdAt)!,
  lastUsedAt: toIsoMicros(token.lastUsedAt ?? null),
  revokedAt: toIsoMicros(token.revokedAt ?? null),
});

@Resolver()
export class WebhooksResolver {
  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly tokens: InboundTokenService,
    private readonly log: DeliveryLogService,
  ) {}

  @Query(() => [WebhookEndpointView])
  async webhookEndpoints(@Ctx() context: GraphQLContext): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.list(requireCaller(context))).map(toEndpointView);
  }

  @Mutation(() => WebhookEndpointWithSecretView)
  async createWebhookEndpoint(
    @Arg('input', () => WebhookEndpointInput) input: WebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpointWithSecretView> {
    const { endpoint, secret } = await this.endpoints.create(requireCaller(context), input);
    return { ...toEndpointView(endpoint), secret };
  }

  @Mutation(() => WebhookEndpointView)
  async updateWebhookEndpoint(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => WebhookEndpointUpdateInput) input: WebhookEndpointUpdateInput,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpointView> {
    return toEndpointView(
      await this.endpoints.update(requireCaller(context), id, {
        url: input.url ?? undefined,
        events: input.events ?? undefined,
      }),
    );
  }

  @Mutation(() => WebhookEndpointView)
  async enableWebhookEndpoint(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpointView> {
    return toEndpointView(await this.endpoints.update(requireCaller(context), id, { enabled: true }));
  }

  @Mutation(() => WebhookEndpointView, { description: 'A disabled endpoint gets no new deliveries.' })
  async disableWebhookEndpoint(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpointView> {
    return toEndpointView(await this.endpoints.update(requireCaller(context), id, { enabled: false }));
  }

  @Mutation(() => WebhookEndpointWithSecretView)
  async rotateWebhookEndpointSecret(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpointWithSecretView> {
    const { endpoint, secret } = await this.endpoints.rotateSecret(requireCaller(context), id);
    return { ...toEndpointView(endpoint), secret };
  }

  @Mutation(() => Boolean)
  async deleteWebhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() context: GraphQLContext): Promise<boolean> {
    await this.endpoints.remove(requireCaller(context), id);
    return true;
  }

  @Query(() => [InboundTokenView])
  async inboundWebhookTokens(@Ctx() context: GraphQLContext): Promise<InboundTokenView[]> {
    return (await this.tokens.list(requireCaller(context))).map(toTokenView);
  }

  @Mutation(() => NewInboundTokenView)
  async createInboundWebhookToken(
    @Arg('kind', () => InboundTokenKind) kind: InboundTokenKind,
    @Ctx() context: GraphQLContext,
  ): Promise<NewInboundTokenView> {
    const { token, plaintext } = await this.tokens.create(requireCaller(context), kind);
    return { id: token.id, token: plaintext, kind: token.kind, createdAt: toIsoMicros(token.createdAt)! };
  }

  @Mutation(() => InboundTokenView)
  async revokeInboundWebhookToken(
    @Arg('id', () => Int) id: number,
    @Ctx() context: GraphQLContext,
  ): Promise<InboundTokenView> {
    return toTokenView(await this.tokens.revoke(requireCaller(context), id));
  }

  @Query(() => DeliveryConnection, {
    description:
      'Deliveries of your events to webhook endpoints and notification targets, newest first, each with its attempts.',
  })
  async webhookDeliveries(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { defaultValue: 50 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('endpointId', () => Int, { nullable: true }) endpointId?: number,
    @Arg('targetId', () => Int, { nullable: true }) targetId?: number,
    @Arg('status', () => DeliveryStatus, { nullable: true }) status?: DeliveryStatus,
  ): Promise<DeliveryConnection> {
    if (first < 1 || first > 200) throw AppError.field('first', 'The first must be from 1 to 200.');
    const offset = after ? decodeCursor(after) + 1 : 0;
    const rows = await this.log.list(requireCaller(context), {
      offset,
      limit: first + 1,
      endpointId: endpointId ?? undefined,
      targetId: targetId ?? undefined,
      status: status ?? undefined,
    });
    const attempts = await this.log.attempts(rows.slice(0, first).map((row) => row.id));
    return pageOf(rows, first, offset, (row) => toDeliveryView(row, attempts));
  }

  @Mutation(() => DeliveryView, { description: 'Attempts a finished delivery once more, now.' })
  async redeliver(
    @Arg('deliveryId', () => Int) deliveryId: number,
    @Ctx() context: GraphQLContext,
  ): Promise<DeliveryView> {
    const row = await this.log.redeliver(requireCaller(context), deliveryId);
    return toDeliveryView(row, await this.log.attempts([row.id]));
  }
}

/** A delivery of the log with its attempts, as GraphQL answers it. */
export function toDeliveryView(row: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    topic: row.topic,
    endpointId: row.endpoint_id,
    targetId: row.target_id,
    status: row.status as DeliveryStatus,
    attemptCount: row.attempt_count,
    nextAttemptAt: toIsoMicros(row.next_attempt_at),
    createdAt: toIsoMicros(row.created_at)!,
    completedAt: toIsoMicros(row.completed_at),
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => ({
        attemptNumber: attempt.attempt_number,
        statusCode: attempt.status_code,
        durationMs: attempt.duration_ms,
        responseExcerpt: attempt.response_excerpt,
        error: attempt.error,
        createdAt: toIsoMicros(attempt.created_at)!,
      })),
  };
}
