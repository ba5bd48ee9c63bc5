import type { EntityManager } from '@mikro-orm/postgresql';
import { Alert } from '../alerts/alert.entity';
import { Product } from '../catalogue/product.entity';
import { productRepository } from '../catalogue/product.repository';
import { ProductCategory } from '../catalogue/product-category.entity';
import { unknownCurrencyProblem } from '../currency/known-currency';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { Folder } from '../organizing/folder.entity';
import { PaymentMode } from '../organizing/payment-mode.entity';
import { Tag } from '../organizing/tag.entity';
import { tagRepository } from '../organizing/tag.repository';
import { NO_ALERT } from '../alerts/alert.input';
import type { SubscriptionPatch } from './subscription.input';
import { globalOrOwn } from '../platform/caller';

/** The category of records whose product has none (DESIGN: free-text products get category 1). */
export const DEFAULT_CATEGORY_ID = 1;

/** Rows a record may link, resolved for the caller: their own (or global) rows only, else a field error. */
export interface ResolvedLinks {
  product?: Product;
  folderId?: number | null;
  categoryId?: number | null;
  /** null: no alert. */
  alertId?: number | null;
  paymentModeId?: number | null;
  tags?: Tag[];
}

/**
 * Resolves and checks the ids an input names, inside the write's transaction. Another user's row is the
 * same as no row: "does not exist".
 */
export async function resolveLinks(em: EntityManager, userId: number, input: SubscriptionPatch): Promise<ResolvedLinks> {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const links: ResolvedLinks = {};

  const currencyProblem = input.currency === undefined ? null : await unknownCurrencyProblem(em, input.currency);
  if (currencyProblem) fail('price_type', currencyProblem);
  if (input.product !== undefined) {
    if ('id' in input.product) {
      const product = await em.findOne(Product, { id: input.product.id, ...globalOrOwn(userId, 'owner') });
      if (product) links.product = product;
      else fail('brand_id', 'The selected brand_id does not exist.');
    } else {
      links.product = await privateProduct(em, userId, input.product.name.trim());
    }
  }
  if (input.folderId !== undefined) {
    if (input.folderId === null || input.folderId === 0) links.folderId = null;
    else if (await em.count(Folder, { id: input.folderId, user: userId })) links.folderId = input.folderId;
    else fail('folder_id', 'The selected folder_id does not exist.');
  }
  if (input.categoryId !== undefined) {
    if (input.categoryId === null) links.categoryId = null;
    else if (await em.count(ProductCategory, { id: input.categoryId, ...globalOrOwn(userId) })) links.categoryId = input.categoryId;
    else fail('category_id', 'The selected category_id does not exist.');
  }
  if (input.alertId !== undefined) {
    if (input.alertId === null || input.alertId === NO_ALERT) links.alertId = null;
    else if (await em.count(Alert, { id: input.alertId, ...globalOrOwn(userId) })) links.alertId = input.alertId;
    else fail('alert_id', 'The selected alert_id does not exist.');
  }
  if (input.paymentModeId !== undefined) {
    if (input.paymentModeId === null || input.paymentModeId === 0) links.paymentModeId = null;
    else if (await em.count(PaymentMode, { id: input.paymentModeId, user: userId })) links.paymentModeId = input.paymentModeId;
    else fail('payment_mode_id', 'The selected payment_mode_id does not exist.');
  }
  if (input.tags !== undefined) {
    const tags: Tag[] = [];
    for (const value of new Set(input.tags.map((tag) => tag.trim()))) {
      if (/^\d+$/.test(value)) {
        const tag = await em.findOne(Tag, { id: Number(value), user: userId });
        if (tag) tags.push(tag);
        else fail('tags', `The tag ${value} does not exist.`);
      } else {
        tags.push(await namedTag(em, userId, value));
      }
    }
    links.tags = tags;
  }
  refuseFieldErrors(errors);
  return links;
}

/** A free-text product: the caller's private product of that name, made on first use. */
async function privateProduct(em: EntityManager, userId: number, name: string): Promise<Product> {
  await productRepository.ensurePrivate(em, userId, name, DEFAULT_CATEGORY_ID);
  return em.findOneOrFail(Product, { owner: userId, productName: name });
}

/** A tag named in a record's tags: the caller's tag of that name, made on first use. */
async function namedTag(em: EntityManager, userId: number, name: string): Promise<Tag> {
  await tagRepository.ensure(em, userId, name);
  return em.findOneOrFail(Tag, { user: userId, name });
}
