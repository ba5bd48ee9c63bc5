import { Arg, Args, Ctx, Field, FieldResolver, ID, InputType, Mutation, Query, Resolver, Root } from 'type-graphql';

import type { Caller } from '../platform/caller';
import { PageArgs, readPage } from '../platform/graphql/connection';
import { type GraphQLContext, requireCaller } from '../platform/graphql/context';
import { idOf, optionalIdOf } from '../platform/graphql/global-ids';
import type { NodeLookup } from '../platform/graphql/node';
import { MutationPayload } from '../platform/graphql/payloads';
import { DeliveryStatus } from './delivery.entity';
import type { DeliveryLogService } from './delivery-log.service';
import type { WebhookEndpointService } from './endpoint.service';
import { InboundTokenKind } from './inbound-token.entity';
import type { InboundTokenService } from './inbound-token.service';
import {
  DeliveryConnection,
  DeliveryView,
  EndpointIdInput,
  InboundTokenView,
  toAttemptView,
  toDeliveryView,
  toEndpointView,
  toTokenView,
  WebhookEndpointView,
  WebhookTopicValue,
} from './webhooks.types';

// The notifications feature answers its test deliveries with these.
export { DeliveryView, toDeliveryView } from './webhooks.types';

/** The delivery log's page sizes: 50 unless asked, at most 200. */
const DELIVERY_PAGES = { defaultSize: 50, maxSize: 200 };

@InputType('CreateWebhookEndpointInput', { description: 'A new webhook endpoint.' })
class CreateWebhookEndpointInput {
  @Field({ description: 'The http(s) URL to POST deliveries to (no internal addresses, no credentials).' })
  url!: string;
  @Field(() => [WebhookTopicValue], {
    defaultValue: [],
    description:
      'The topics to deliver; empty (the default) means the five change topics. NOTIFICATION_TEST cannot be listed.',
  })
  events!: WebhookTopicValue[];
}

@InputType('UpdateWebhookEndpointInput', { description: 'Changes to a webhook endpoint: the fields given are set.' })
class UpdateWebhookEndpointInput extends EndpointIdInput {
  @Field(() => String, { nullable: true, description: 'A new URL.' }) url?: string | null;
  @Field(() => [WebhookTopicValue], { nullable: true, description: 'New topics; empty means the five change topics.' })
  events?: WebhookTopicValue[] | null;
}

@InputType('EnableWebhookEndpointInput', { description: 'The webhook endpoint to enable.' })
class EnableWebhookEndpointInput extends EndpointIdInput {}
@InputType('DisableWebhookEndpointInput', { description: 'The webhook endpoint to disable.' })
class DisableWebhookEndpointInput extends EndpointIdInput {}
@InputType('RotateWebhookEndpointSecretInput', { description: 'The webhook endpoint to give a new secret.' })
class RotateWebhookEndpointSecretInput extends EndpointIdInput {}
@InputType('DeleteWebhookEndpointInput', { description: 'The webhook endpoint to delete.' })
class DeleteWebhookEndpointInput extends EndpointIdInput {}

@InputType('CreateInboundWebhookTokenInput', { description: 'A new inbound webhook token.' })
class CreateInboundWebhookTokenInput {
  @Field(() => InboundTokenKind, { description: 'What it may do.' }) kind!: InboundTokenKind;
}

@InputType('RevokeInboundWebhookTokenInput', { description: 'The inbound webhook token to revoke.' })
class RevokeInboundWebhookTokenInput {
  @Field(() => ID, { description: 'The token (its id, not the token itself).' }) id!: string;
}

@InputType('RedeliverInput', { description: 'The finished delivery to attempt once more.' })
class RedeliverInput {
  @Field(() => ID, { description: 'The delivery.' }) deliveryId!: string;
}

const SECRET_DESCRIPTION =
  'The signing secret (whsec_ + base64) that signs webhook-signature: shown this once; null when refused.';

const CreateWebhookEndpointPayload = MutationPayload(
  'CreateWebhookEndpointPayload',
  'webhookEndpoint',
  () => WebhookEndpointView,
  'The new webhook endpoint and its signing secret.',
);
Field(() => String, { nullable: true, description: SECRET_DESCRIPTION })(
  CreateWebhookEndpointPayload.prototype,
  'secret',
);
const RotateWebhookEndpointSecretPayload = MutationPayload(
  'RotateWebhookEndpointSecretPayload',
  'webhookEndpoint',
  () => WebhookEndpointView,
  'The webhook endpoint and its new signing secret (the old one no longer signs).',
);
Field(() => String, { nullable: true, description: SECRET_DESCRIPTION })(
  RotateWebhookEndpointSecretPayload.prototype,
  'secret',
);
const UpdateWebhookEndpointPayload = MutationPayload(
  'UpdateWebhookEndpointPayload',
  'webhookEndpoint',
  () => WebhookEndpointView,
  'The changed webhook endpoint.',
);
const EnableWebhookEndpointPayload = MutationPayload(
  'EnableWebhookEndpointPayload',
  'webhookEndpoint',
  () => WebhookEndpointView,
  'The enabled webhook endpoint.',
);
const DisableWebhookEndpointPayload = MutationPayload(
  'DisableWebhookEndpointPayload',
  'webhookEndpoint',
  () => WebhookEndpointView,
  'The disabled webhook endpoint.',
);
const DeleteWebhookEndpointPayload = MutationPayload(
  'DeleteWebhookEndpointPayload',
  'deletedWebhookEndpointId',
  () => ID,
  'The deleted webhook endpoint.',
);
const CreateInboundWebhookTokenPayload = MutationPayload(
  'CreateInboundWebhookTokenPayload',
  'inboundWebhookToken',
  () => InboundTokenView,
  'The new inbound webhook token, and the token itself.',
);
Field(() => String, {
  nullable: true,
  description: 'The token (whin_…) that goes into /webhook/user/data/<token>: shown this once; null when refused.',
})(CreateInboundWebhookTokenPayload.prototype, 'token');
const RevokeInboundWebhookTokenPayload = MutationPayload(
  'RevokeInboundWebhookTokenPayload',
  'inboundWebhookToken',
  () => InboundTokenView,
  'The revoked inbound webhook token.',
);
const RedeliverPayload = MutationPayload(
  'RedeliverPayload',
  'webhookDelivery',
  () => DeliveryView,
  'The delivery, pending again.',
);

/** The delivery log's filters as GraphQL takes them. */
interface DeliveryFilters {
  endpointId?: number;
  targetId?: number;
  status?: DeliveryStatus;
}

@Resolver(() => WebhookEndpointView)
export class WebhooksResolver {
  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly tokens: InboundTokenService,
    private readonly log: DeliveryLogService,
  ) {}

  @Query(() => [WebhookEndpointView], { description: 'Your webhook endpoints, oldest first.' })
  async webhookEndpoints(@Ctx() context: GraphQLContext): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.list(requireCaller(context))).map(toEndpointView);
  }

  @FieldResolver(() => DeliveryConnection, {
    description: 'Its deliveries, newest first, each with its attempts: 50 a page unless asked, at most 200.',
  })
  async deliveries(
    @Root() endpoint: WebhookEndpointView,
    @Args() page: PageArgs,
    @Ctx() context: GraphQLContext,
    @Arg('status', () => DeliveryStatus, { nullable: true, description: 'Only the deliveries in this status.' })
    status?: DeliveryStatus | null,
  ): Promise<DeliveryConnection> {
    return this.deliveryPage(requireCaller(context), page, { endpointId: endpoint.id, status: status ?? undefined });
  }

  @Mutation(() => CreateWebhookEndpointPayload, {
    description: 'Adds a webhook endpoint; its signing secret is answered this once.',
  })
  async createWebhookEndpoint(
    @Arg('input', () => CreateWebhookEndpointInput, { description: 'The new endpoint.' })
    input: CreateWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { endpoint, secret } = await this.endpoints.create(requireCaller(context), {
      url: input.url,
      events: input.events,
    });
    return { webhookEndpoint: toEndpointView(endpoint), secret };
  }

  @Mutation(() => UpdateWebhookEndpointPayload, { description: "Changes a webhook endpoint's URL or topics." })
  async updateWebhookEndpoint(
    @Arg('input', () => UpdateWebhookEndpointInput, { description: 'The endpoint and its changes.' })
    input: UpdateWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const endpoint = await this.endpoints.update(requireCaller(context), idOf(input.id, 'WebhookEndpoint'), {
      url: input.url ?? undefined,
      events: input.events ?? undefined,
    });
    return { webhookEndpoint: toEndpointView(endpoint) };
  }

  @Mutation(() => EnableWebhookEndpointPayload, { description: 'Enables a webhook endpoint: it gets new deliveries.' })
  async enableWebhookEndpoint(
    @Arg('input', () => EnableWebhookEndpointInput, { description: 'The endpoint.' }) input: EnableWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const id = idOf(input.id, 'WebhookEndpoint');
    return {
      webhookEndpoint: toEndpointView(await this.endpoints.update(requireCaller(context), id, { enabled: true })),
    };
  }

  @Mutation(() => DisableWebhookEndpointPayload, {
    description: 'Disables a webhook endpoint: it gets no new deliveries.',
  })
  async disableWebhookEndpoint(
    @Arg('input', () => DisableWebhookEndpointInput, { description: 'The endpoint.' })
    input: DisableWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const id = idOf(input.id, 'WebhookEndpoint');
    return {
      webhookEndpoint: toEndpointView(await this.endpoints.update(requireCaller(context), id, { enabled: false })),
    };
  }

  @Mutation(() => RotateWebhookEndpointSecretPayload, {
    description: 'Gives a webhook endpoint a new signing secret, answered this once.',
  })
  async rotateWebhookEndpointSecret(
    @Arg('input', () => RotateWebhookEndpointSecretInput, { description: 'The endpoint.' })
    input: RotateWebhookEndpointSecretInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { endpoint, secret } = await this.endpoints.rotateSecret(
      requireCaller(context),
      idOf(input.id, 'WebhookEndpoint'),
    );
    return { webhookEndpoint: toEndpointView(endpoint), secret };
  }

  @Mutation(() => DeleteWebhookEndpointPayload, { description: 'Deletes a webhook endpoint and its deliveries.' })
  async deleteWebhookEndpoint(
    @Arg('input', () => DeleteWebhookEndpointInput, { description: 'The endpoint.' }) input: DeleteWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    await this.endpoints.remove(requireCaller(context), idOf(input.id, 'WebhookEndpoint'));
    return { deletedWebhookEndpointId: input.id };
  }

  @Query(() => [InboundTokenView], { description: 'Your inbound webhook tokens, revoked ones too.' })
  async inboundWebhookTokens(@Ctx() context: GraphQLContext): Promise<InboundTokenView[]> {
    return (await this.tokens.list(requireCaller(context))).map(toTokenView);
  }

  @Mutation(() => CreateInboundWebhookTokenPayload, {
    description: 'Makes an inbound webhook token; the token is answered this once.',
  })
  async createInboundWebhookToken(
    @Arg('input', () => CreateInboundWebhookTokenInput, { description: 'The new token.' })
    input: CreateInboundWebhookTokenInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const { token, plaintext } = await this.tokens.create(requireCaller(context), input.kind);
    return { inboundWebhookToken: toTokenView(token), token: plaintext };
  }

  @Mutation(() => RevokeInboundWebhookTokenPayload, {
    description: 'Revokes an inbound webhook token: requests with it are refused from now on.',
  })
  async revokeInboundWebhookToken(
    @Arg('input', () => RevokeInboundWebhookTokenInput, { description: 'The token.' })
    input: RevokeInboundWebhookTokenInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const token = await this.tokens.revoke(requireCaller(context), idOf(input.id, 'InboundWebhookToken'));
    return { inboundWebhookToken: toTokenView(token) };
  }

  @Query(() => DeliveryConnection, {
    description:
      'Deliveries of your events to webhook endpoints and notification targets, newest first, each with its attempts: 50 a page unless asked, at most 200.',
  })
  async webhookDeliveries(
    @Args() page: PageArgs,
    @Ctx() context: GraphQLContext,
    @Arg('endpointId', () => ID, { nullable: true, description: 'Only the deliveries to this webhook endpoint.' })
    endpointId?: string | null,
    @Arg('targetId', () => ID, { nullable: true, description: 'Only the deliveries to this notification target.' })
    targetId?: string | null,
    @Arg('status', () => DeliveryStatus, { nullable: true, description: 'Only the deliveries in this status.' })
    status?: DeliveryStatus | null,
  ): Promise<DeliveryConnection> {
    return this.deliveryPage(requireCaller(context), page, {
      endpointId: optionalIdOf(endpointId, 'WebhookEndpoint', 'endpointId') ?? undefined,
      targetId: optionalIdOf(targetId, 'NotificationTarget', 'targetId') ?? undefined,
      status: status ?? undefined,
    });
  }

  @Mutation(() => RedeliverPayload, { description: 'Attempts a finished delivery once more, now.' })
  async redeliver(
    @Arg('input', () => RedeliverInput, { description: 'The delivery.' }) input: RedeliverInput,
    @Ctx() context: GraphQLContext,
  ): Promise<object> {
    const row = await this.log.redeliver(
      requireCaller(context),
      idOf(input.deliveryId, 'WebhookDelivery', 'deliveryId'),
    );
    return { webhookDelivery: toDeliveryView(row, await this.log.attempts([row.id])) };
  }

  private async deliveryPage(caller: Caller, page: PageArgs, filters: DeliveryFilters): Promise<DeliveryConnection> {
    const read = async (offset: number, limit: number) => {
      const [rows, total] = await Promise.all([
        limit > 0 ? this.log.list(caller, { offset, limit, ...filters }) : Promise.resolve([]),
        this.log.count(caller, filters),
      ]);
      const attempts = await this.log.attempts(rows.map((row) => row.id));
      return { rows: rows.map((row) => toDeliveryView(row, attempts)), total };
    };
    return readPage(page, DELIVERY_PAGES, read, (view) => view);
  }
}

/** `node(id:)` for the webhooks feature's types, as the caller sees them (their own only). */
export function webhookNodeLookups(
  endpoints: WebhookEndpointService,
  tokens: InboundTokenService,
  log: DeliveryLogService,
): Record<string, NodeLookup> {
  return {
    WebhookEndpoint: async (caller, id) => {
      const endpoint = (await endpoints.list(caller)).find((row) => row.id === id);
      return endpoint ? toEndpointView(endpoint) : null;
    },
    InboundWebhookToken: async (caller, id) => {
      const token = (await tokens.list(caller)).find((row) => row.id === id);
      return token ? toTokenView(token) : null;
    },
    WebhookDelivery: async (caller, id) => {
      const row = await log.get(caller, id);
      return toDeliveryView(row, await log.attempts([row.id]));
    },
    WebhookDeliveryAttempt: async (caller, id) => toAttemptView(await log.attempt(caller, id)),
  };
}
