import type { Caller } from '../platform/caller';
import type { Config } from '../platform/config';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import { checkEndpointUrl } from '../platform/ssrf-guard';
import type { WebhookEndpoint } from './endpoint.entity';
import type { WebhookEndpointRepository } from './endpoint.repository';
import { newEndpointSecret } from './signature';
import { ALL_TOPICS } from './topics';

export interface EndpointChange {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

/** The caller's outbound endpoints. The signing secret is shown when made or rotated, never again. */
export class WebhookEndpointService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: WebhookEndpointRepository,
    private readonly config: Pick<Config, 'webhookAllowPrivate'>,
  ) {}

  async list(caller: Caller): Promise<WebhookEndpoint[]> {
    return this.repository.list(caller.userId);
  }

  /** Returns the endpoint and its secret (the one time it is shown). */
  async create(
    caller: Caller,
    input: { url: string; events: string[] },
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const secret = newEndpointSecret();
    const endpoint = await this.repository.add({
      user: caller.userId,
      url: checkEndpointUrl(input.url, this.config.webhookAllowPrivate).toString(),
      events: checkTopics(input.events),
      secret,
    });
    return { endpoint, secret };
  }

  async update(caller: Caller, id: number, change: EndpointChange): Promise<WebhookEndpoint> {
    return this.transactions.transaction(() =>
      this.changeOwned(caller, id, (endpoint) => {
        if (change.url !== undefined)
          endpoint.url = checkEndpointUrl(change.url, this.config.webhookAllowPrivate).toString();
        if (change.events !== undefined) endpoint.events = checkTopics(change.events);
        if (change.enabled !== undefined) endpoint.enabled = change.enabled;
      }),
    );
  }

  async rotateSecret(caller: Caller, id: number): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const secret = newEndpointSecret();
    const endpoint = await this.changeOwned(caller, id, (endpoint) => {
      endpoint.secret = secret;
    });
    return { endpoint, secret };
  }

  async remove(caller: Caller, id: number): Promise<void> {
    if (!(await this.repository.remove(caller.userId, id))) throw AppError.notFound('Webhook endpoint');
  }

  private async changeOwned(
    caller: Caller,
    id: number,
    change: (endpoint: WebhookEndpoint) => void,
  ): Promise<WebhookEndpoint> {
    const endpoint = await this.repository.change(caller.userId, id, change);
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
