import DataLoader from 'dataloader';

import type { Alert } from '../alerts/alert.entity';
import type { AlertRepository } from '../alerts/alert.repository';
import type { Product } from '../catalogue/product.entity';
import type { ProductRepository } from '../catalogue/product.repository';
import type { Tag } from '../organizing/tag.entity';
import type { PriceHistoryRepository, PriceStep } from './price-history.repository';
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

/** Where the loaders read from. */
export interface LoaderSources {
  products: Pick<ProductRepository, 'byIds'>;
  subscriptions: Pick<SubscriptionRepository, 'tagsOf' | 'alertLinks'>;
  alerts: Pick<AlertRepository, 'byIds'>;
  priceHistory: Pick<PriceHistoryRepository, 'of'>;
}

/** Loaders live for one request (their caches must not outlive the caller's view of the data). */
export function createLoaders({ products, subscriptions, alerts, priceHistory }: LoaderSources): Loaders {
  return {
    // Plain rows, not managed entities: hydrating a page's products into the identity map cost a tenth of
    // a GraphQL page's CPU, and nothing here writes them back.
    products: new DataLoader<number, Product | null>(async (ids) => {
      const map = new Map((await products.byIds(ids)).map((row) => [row.id, row]));
      return ids.map((id) => map.get(id) ?? null);
    }),
    tagsOfSubscription: new DataLoader<number, Tag[]>(async (ids) => {
      const rows = await subscriptions.tagsOf(ids);
      return ids.map((id) =>
        rows.filter((row) => row.subscription_id === id).map((row) => ({ id: row.id, name: row.name }) as Tag),
      );
    }),
    alertsOfSubscription: new DataLoader<number, Alert[]>(async (ids) => {
      const links = await subscriptions.alertLinks(ids);
      const byId = new Map(
        (await alerts.byIds([...new Set(links.map((link) => link.alert_id))])).map((alert) => [alert.id, alert]),
      );
      return ids.map((id) =>
        links.filter((link) => link.subscription_id === id).map((link) => byId.get(link.alert_id)!),
      );
    }),
    priceHistoryOf: new DataLoader<number, PriceStep[]>(async (ids) => {
      const steps = await priceHistory.of(ids);
      return ids.map((id) => steps.filter((step) => step.subscription_id === id));
    }),
  };
}
