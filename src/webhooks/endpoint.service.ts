import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import { AppError } from '../platform/errors';
import { WebhookEndpoint } from './endpoint.entity';
import { newEndpointSecret } from './signature';
import { checkEndpointUrl } from './ssrf-guard';
import { ALL_TOPICS } from './topics';

export interface EndpointChange {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

/** The caller's outbound endpoints. The signing secret is shown when made or rotated, never again. */
export class WebhookEndpointService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly config: Pick<Config, 'webhookAllowPrivate'>,
  ) {}

  async list(caller: Caller): Promise<WebhookEndpoint[]> {
    return this.orm.em.fork().find(WebhookEndpoint, { user: caller.userId }, { orderBy: { id: 'asc' } });
  }

  /** Returns the endpoint and its secret (the one time it is shown). */
  async create(
    caller: Caller,
    input: { url: string; events: string[] },
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    // In the caller's transaction when there is one (an import's).
    return this.orm.em.transactional(async (em) => {
      const secret = newEndpointSecret();
      const endpoint = em.create(WebhookEndpoint, {
        user: caller.userId,
        url: checkEndpointUrl(input.url, this.config.webhookAllowPrivate).toString(),
        events: checkTopics(input.events),
        secret,
        enabled: true,
      });
      await em.flush();
      return { endpoint, secret };
    });
  }

  async update(caller: Caller, id: number, change: EndpointChange): Promise<WebhookEndpoint> {
    return this.orm.em.transactional(async (em) => {
      const endpoint = await this.owned(em, caller, id);
      if (change.url !== undefined)
        endpoint.url = checkEndpointUrl(change.url, this.config.webhookAllowPrivate).toString();
      if (change.events !== undefined) endpoint.events = checkTopics(change.events);
      if (change.enabled !== undefined) endpoint.enabled = change.enabled;
      await em.flush();
      return endpoint;
    });
  }

  async rotateSecret(caller: Caller, id: number): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const em = this.orm.em.fork();
    const endpoint = await this.owned(em, caller, id);
    const secret = newEndpointSecret();
    endpoint.secret = secret;
    await em.flush();
    return { endpoint, secret };
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const removed = await this.orm.em.fork().nativeDelete(WebhookEndpoint, { id, user: caller.userId });
    if (removed === 0) throw AppError.notFound('Webhook endpoint');
  }

  private async owned(
    em: ReturnType<MikroORM<PostgreSqlDriver>['em']['fork']>,
    caller: Caller,
    id: number,
  ): Promise<WebhookEndpoint> {
    const endpoint = await em.findOne(WebhookEndpoint, { id, user: caller.userId });
    if (!endpoint) throw AppError.notFound('Webhook endpoint');
    return endpoint;
  }
}

/** Topic names an endpoint takes; an empty list means the five change topics (reminder topics must be listed). */
function checkTopics(events: string[]): string[] {
  const unknown = events.filter((event) => !ALL_TOPICS.includes(event));
  if (unknown.length > 0)
    throw AppError.field('events', `Unknown topics: ${unknown.join(', ')}; use ${ALL_TOPICS.join(', ')}.`);
  return [...new Set(events)];
}
