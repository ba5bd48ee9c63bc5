import { DEFAULT_ALERT, NO_ALERT } from '../alerts/alert.input';
import type { AlertRepository } from '../alerts/alert.repository';
import type { ProductRepository } from '../catalogue/product.repository';
import { unknownCurrencyMessage } from '../currency/known-currency';
import type { TagRepository } from '../organizing/tag.repository';
import { type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { ReminderDefinition } from '../platform/reminder-scheduling';
import type { Subscription } from './subscription.entity';
import type { SubscriptionPatch } from './subscription.input';
import type { LinkPlan, LinkPlanAsk } from './subscription.repository';

/** The category of records whose product has none (DESIGN: free-text products get category 1). */
export const DEFAULT_CATEGORY_ID = 1;

/** The field error of a link that does not resolve for the caller. */
const MISSING = {
  brand_id: 'The selected brand_id does not exist.',
  folder_id: 'The selected folder_id does not exist.',
  category_id: 'The selected category_id does not exist.',
  alert_id: 'The selected alert_id does not exist.',
  payment_mode_id: 'The selected payment_mode_id does not exist.',
};
const missingTag = (value: string) => `The tag ${value} does not exist.`;

/** The distinct tags an input names, trimmed: ids (all digits) or names. */
const namedTags = (tags: string[]) => [...new Set(tags.map((tag) => tag.trim()))];
const isTagId = (value: string) => /^\d+$/.test(value);

/** Whether an update names rows to link (or a currency), and so needs a plan. */
export function namesLinks(patch: SubscriptionPatch): boolean {
  return [
    patch.currency,
    patch.product,
    patch.folderId,
    patch.categoryId,
    patch.alertId,
    patch.paymentModeId,
    patch.tags,
  ].some((value) => value !== undefined);
}

/** The links an input names, for its plan: null where it names none. A create without an alert gets the default one. */
export function planAsk(input: SubscriptionPatch, creating: boolean): LinkPlanAsk {
  const product = input.product;
  const tags = namedTags(input.tags ?? []);
  const alertId = input.alertId === undefined ? (creating ? DEFAULT_ALERT : null) : input.alertId;
  return {
    currency: input.currency ?? null,
    productId: product && 'id' in product ? product.id : null,
    productName: product && 'name' in product ? product.name.trim() : null,
    folderId: input.folderId || null,
    categoryId: input.categoryId ?? null,
    alertId: alertId === null || alertId === NO_ALERT ? null : alertId,
    paymentModeId: input.paymentModeId || null,
    tagIds: tags.filter(isTagId).map(Number),
    tagNames: tags.filter((tag) => !isTagId(tag)),
  };
}

/** The link columns an input names, as its plan's ask has them. */
export function linkValues(input: SubscriptionPatch, ask: LinkPlanAsk): Partial<Subscription> {
  const values: Partial<Subscription> = {};
  if (input.folderId !== undefined) values.folder = ask.folderId;
  if (input.categoryId !== undefined) values.category = ask.categoryId;
  if (input.alertId !== undefined) values.alert = ask.alertId;
  if (input.paymentModeId !== undefined) values.paymentMode = ask.paymentModeId;
  return values;
}

/**
 * An input's plan checked: a field error for each link that does not resolve for the caller (another user's row is the same as no row); a private
 * product or tags named for the first time are `unmade`, for the caller to make and plan again.
 */
export function checkPlan(
  input: SubscriptionPatch,
  ask: LinkPlanAsk,
  plan: LinkPlan,
): { errors: FieldErrors; unmade: { product?: string; tags: string[] } } {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const unmade: { product?: string; tags: string[] } = { tags: [] };
  if (input.currency !== undefined && !plan.currency_known) fail('price_type', unknownCurrencyMessage(input.currency));
  if (input.product !== undefined && !plan.product) {
    if (ask.productId !== null) fail('brand_id', MISSING.brand_id);
    else unmade.product = ask.productName!;
  }
  if (ask.folderId !== null && !plan.folder_found) fail('folder_id', MISSING.folder_id);
  if (ask.categoryId !== null && !plan.category_found) fail('category_id', MISSING.category_id);
  if (input.alertId !== undefined && ask.alertId !== null && !plan.alert_found) fail('alert_id', MISSING.alert_id);
  if (ask.paymentModeId !== null && !plan.payment_mode_found) fail('payment_mode_id', MISSING.payment_mode_id);
  for (const value of namedTags(input.tags ?? [])) {
    const found = plan.tags.some((tag) => (isTagId(value) ? tag.id === Number(value) : tag.name === value));
    if (found) continue;
    if (isTagId(value)) fail('tags', missingTag(value));
    else unmade.tags.push(value);
  }
  return { errors, unmade };
}

/** The reads and writes of other features' rows that a record's links need. */
export class LinkChecks {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly products: ProductRepository,
    private readonly tags: TagRepository,
  ) {}

  /** The definitions of these alert ids, each the system's or one of the caller's, else a field error. */
  async usableAlerts(userId: number, alertIds: readonly number[]): Promise<ReminderDefinition[]> {
    const definitions = await this.alerts.usableDefinitions(userId, [...alertIds]);
    if (definitions.length !== alertIds.length) refuseFieldErrors({ alert_id: [MISSING.alert_id] });
    return definitions;
  }

  /** Makes the private products and the tags creates name for the first time, a statement each (outside their statement: see README). */
  async makeUnmade(userId: number, unmade: { products: readonly string[]; tags: readonly string[] }): Promise<void> {
    if (unmade.products.length > 0) await this.products.ensurePrivate(userId, unmade.products, DEFAULT_CATEGORY_ID);
    if (unmade.tags.length > 0) await this.tags.ensure(userId, unmade.tags);
  }
}
