import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { Alert } from '../alerts/alert.entity';
import { Product } from '../catalogue/product.entity';
import { ProductCategory } from '../catalogue/product-category.entity';
import { Folder } from '../organizing/folder.entity';
import { PaymentMode } from '../organizing/payment-mode.entity';
import { Tag } from '../organizing/tag.entity';
import type { SubscriptionRepository } from './subscription.repository';

/** Batches the rows nested under a page of records: one statement per kind, whatever the page size. */
export interface Loaders {
  products: DataLoader<number, Product | null>;
  folders: DataLoader<number, Folder | null>;
  categories: DataLoader<number, ProductCategory | null>;
  paymentModes: DataLoader<number, PaymentMode | null>;
  tagsOfSubscription: DataLoader<number, Tag[]>;
  /** A record's alert definitions, its alert_id first. */
  alertsOfSubscription: DataLoader<number, Alert[]>;
}

/** Loaders live for one request (their caches must not outlive the caller's view of the data). */
export function createLoaders(orm: MikroORM<PostgreSqlDriver>, subscriptions: SubscriptionRepository): Loaders {
  const em = orm.em.fork();
  // Plain rows under the entities' property names, not managed entities: hydrating a page's products and
  // folders into the identity map was a tenth of a GraphQL page's CPU, and nothing here writes them back.
  const byId = <T extends { id: number }>(entity: new () => T) =>
    new DataLoader<number, T | null>(async (ids) => {
      const rows = await em
        .createQueryBuilder(entity as never)
        .where({ id: { $in: [...ids] } } as never)
        .execute('all');
      const map = new Map((rows as T[]).map((row) => [row.id, row]));
      return ids.map((id) => map.get(id) ?? null);
    });
  return {
    products: byId(Product),
    folders: byId(Folder),
    categories: byId(ProductCategory),
    paymentModes: byId(PaymentMode),
    tagsOfSubscription: new DataLoader<number, Tag[]>(async (ids) => {
      const rows = await subscriptions.tagsOf(em, ids);
      return ids.map((id) => rows.filter((row) => row.subscription_id === id).map((row) => ({ id: row.id, name: row.name }) as Tag));
    }),
    alertsOfSubscription: new DataLoader<number, Alert[]>(async (ids) => {
      const links = await subscriptions.alertLinks(em, ids);
      const alerts = await em.find(Alert, { id: { $in: [...new Set(links.map((link) => link.alert_id))] } });
      const byId = new Map(alerts.map((alert) => [alert.id, alert]));
      return ids.map((id) => links.filter((link) => link.subscription_id === id).map((link) => byId.get(link.alert_id)!));
    }),
  };
}
