import type { DataSource } from '../platform/db/data-source';
import { WebhookEndpoint } from './endpoint.entity';

/** The one door to webhook_endpoints as their owners manage them (the relay reads them with the deliveries). */
export class WebhookEndpointRepository {
  constructor(private readonly db: DataSource) {}

  /** The user's endpoints, in the order they were made. */
  list(userId: number): Promise<WebhookEndpoint[]> {
    return this.db.em().find(WebhookEndpoint, { user: userId }, { orderBy: { id: 'asc' } });
  }

  /** Makes an enabled endpoint, in the caller's transaction when there is one (an import's). */
  async add(endpoint: { user: number; url: string; events: string[]; secret: string }): Promise<WebhookEndpoint> {
    return this.db.insert(WebhookEndpoint, { ...endpoint, enabled: true });
  }

  /** Changes one of the user's endpoints and writes it (`change` may throw first); null when there is none. */
  async change(
    userId: number,
    id: number,
    change: (endpoint: WebhookEndpoint) => void,
  ): Promise<WebhookEndpoint | null> {
    const em = this.db.em();
    const endpoint = await em.findOne(WebhookEndpoint, { id, user: userId });
    if (!endpoint) return null;
    change(endpoint);
    await em.flush();
    return endpoint;
  }

  /** Removes one of the user's endpoints; whether there was one. */
  async remove(userId: number, id: number): Promise<boolean> {
    return (await this.db.em().nativeDelete(WebhookEndpoint, { id, user: userId })) > 0;
  }
}
