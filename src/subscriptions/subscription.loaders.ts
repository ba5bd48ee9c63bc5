import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';

import { Alert } from '../alerts/alert.entity';
import type { Product } from '../catalogue/product.entity';
import { productRepository } from '../catalogue/product.repository';
import type { Tag } from '../organizing/tag.entity';
import { pooled } from '../platform/db/statements';
import { priceHistoryRepository, type PriceStep } from './price-history.repository';
import type { SubscriptionRepository } from './subscription.repository';

/**
 * Batches the rows nested under a page of records that its read does not join: one statement per kind,
 * whatever the page size. (Folder, category and payment mode come joined with the record.)
 */
export interface Loaders {
  products: DataLoader<number, Product | null>;
  tagsOfSubscription: DataLoader<number, Tag[]>;
  /** A record's alert definitions, its alert_id first. */
  alertsOfSubscription: DataLoader<number, Alert[]>;
  /** A record's price steps in date order (none: its price never changed). */
  priceHistoryOf: DataLoader<number, PriceStep[]>;
}

/** Loaders live for one request (their caches must not outlive the caller's view of the data). */
export function createLoaders(orm: MikroORM<PostgreSqlDriver>, subscriptions: SubscriptionRepository): Loaders {
  const em = orm.em.fork();
  return {
    // Plain rows, not managed entities: hydrating a page's products into the identity map cost a tenth of
    // a GraphQL page's CPU, and nothing here writes them back.
    products: new DataLoader<number, Product | null>(async (ids) => {
      const map = new Map((await productRepository.byIds(pooled(orm), ids)).map((row) => [row.id, row]));
      return ids.map((id) => map.get(id) ?? null);
    }),
    tagsOfSubscription: new DataLoader<number, Tag[]>(async (ids) => {
      const rows = await subscriptions.tagsOf(em, ids);
      return ids.map((id) =>
        rows.filter((row) => row.subscription_id === id).map((row) => ({ id: row.id, name: row.name }) as Tag),
      );
    }),
    alertsOfSubscription: new DataLoader<number, Alert[]>(async (ids) => {
      const links = await subscriptions.alertLinks(em, ids);
      const alerts = await em.find(Alert, { id: { $in: [...new Set(links.map((link) => link.alert_id))] } });
      const byId = new Map(alerts.map((alert) => [alert.id, alert]));
      return ids.map((id) =>
        links.filter((link) => link.subscription_id === id).map((link) => byId.get(link.alert_id)!),
      );
    }),
    priceHistoryOf: new DataLoader<number, PriceStep[]>(async (ids) => {
      const steps = await priceHistoryRepository.of(pooled(orm), ids);
      return ids.map((id) => steps.filter((step) => step.subscription_id === id));
    }),
  };
}
