import { DEFAULT_ALERT, NO_ALERT } from '../alerts/alert.input';
import { unknownCurrencyMessage } from '../currency/known-currency';
import type { FieldErrors } from '../platform/errors';
import { type SubscriptionInput, validateSubscriptionInput } from '../subscriptions/subscription.input';
import type { AccountNames, NamedRow, ProductMatch } from './import.repository';
import type { ImportRow } from './import-row';

export type LinkKind = 'category' | 'folder' | 'paymentMode';

/** What a row's name was matched to: an existing row (its id) or one the import makes. */
export interface ImportMatch {
  kind: 'product' | 'currency' | 'tag' | 'alert' | LinkKind;
  name: string;
  id: number | null;
  existing: boolean;
}

/** A row checked against the account: the create it becomes, or its problems. */
export interface ResolvedRow {
  row: ImportRow;
  input: SubscriptionInput;
  matches: ImportMatch[];
  problems: FieldErrors;
  /** Links the import makes before the row's create, by name. */
  pending: Partial<Record<LinkKind, string>>;
}

/** The account's names, looked up case-insensitively. */
export class NameIndex {
  private readonly byKind: Record<LinkKind | 'tag', Map<string, NamedRow>>;

  constructor(
    readonly names: AccountNames,
    private readonly products: ProductMatch[],
    /** The file's alert definitions (a Subledger export's), by their id there. */
    private readonly fileAlerts: ReadonlyMap<number, string> = new Map(),
  ) {
    // A later row of the same name wins: the user's own category over a global one.
    const index = (rows: NamedRow[]) => new Map(rows.map((row) => [row.name.toLowerCase(), row] as const));
    this.byKind = {
      category: index([...names.categories.filter((row) => !row.own), ...names.categories.filter((row) => row.own)]),
      folder: index(names.folders),
      paymentMode: index(names.paymentModes),
      tag: new Map(names.tags.map((row) => [row.name, row])),
    };
  }

  resolve(row: ImportRow): ResolvedRow {
    const matches: ImportMatch[] = [];
    const problems: FieldErrors = structuredClone(row.problems);
    const fail = (field: string, message: string) => (problems[field] ??= []).push(message);
    const pending: ResolvedRow['pending'] = {};
    const input = { ...row.values, tags: row.links.tags } as SubscriptionInput;

    const product = this.product(row);
    input.product = product ? { id: product.id } : { name: row.name };
    if (row.name !== '')
      matches.push({
        kind: 'product',
        name: product?.name ?? row.name,
        id: product?.id ?? null,
        existing: product !== null,
      });

    if (input.currency !== undefined) {
      const known = this.names.currencies.includes(input.currency);
      if (known) matches.push({ kind: 'currency', name: input.currency, id: null, existing: true });
      else fail('price_type', unknownCurrencyMessage(input.currency));
    }

    const restoredCategory = row.restore?.categoryId;
    if (restoredCategory !== null && restoredCategory !== undefined) {
      if (this.names.categories.some((category) => !category.own && category.id === restoredCategory))
        input.categoryId = restoredCategory;
      else fail('category_id', 'The selected category_id does not exist.');
    }
    for (const kind of ['category', 'folder', 'paymentMode'] as const) {
      const name = row.links[kind];
      if (name === null) continue;
      const found = this.find(kind, name);
      matches.push({ kind, name: found?.name ?? name, id: found?.id ?? null, existing: found !== undefined });
      if (found) Object.assign(input, { [`${kind}Id`]: found.id });
      else pending[kind] = name;
    }
    for (const tag of row.links.tags) {
      const found = this.byKind.tag.get(tag);
      matches.push({ kind: 'tag', name: tag, id: found?.id ?? null, existing: found !== undefined });
    }

    if (row.restore) {
      for (const alertId of row.restore.alertIds) {
        if (this.fileAlerts.has(alertId))
          matches.push({ kind: 'alert', name: this.fileAlerts.get(alertId)!, id: null, existing: false });
        else if (this.names.globalAlerts.includes(alertId))
          matches.push({ kind: 'alert', name: `#${alertId}`, id: alertId, existing: true });
        else fail('alert_id', `The alert definition ${alertId} is neither in the file nor a system one.`);
      }
      input.alertId = row.restore.alertIds.length === 0 ? NO_ALERT : row.restore.alertIds[0];
    } else input.alertId = row.links.notify ? DEFAULT_ALERT : NO_ALERT;

    for (const [field, messages] of Object.entries(validateSubscriptionInput(input)))
      for (const message of messages) fail(field, message);
    return { row, input, matches, problems, pending };
  }

  /** The account's category, folder or payment method of this name (any case); the user's category over a global one. */
  find(kind: LinkKind, name: string): NamedRow | undefined {
    return this.byKind[kind].get(name.toLowerCase());
  }

  /** The product a row means: a restored catalogue product, the user's private product of its name, or the catalogue's. */
  private product(row: ImportRow): ProductMatch | null {
    const restored = row.restore?.productId;
    const byId =
      restored === null || restored === undefined
        ? undefined
        : this.products.find((product) => !product.own && product.id === restored);
    const name = row.name.toLowerCase();
    const own = this.products.find((product) => product.own && product.name.toLowerCase() === name);
    const catalogue = this.products.find((product) => !product.own && product.name.toLowerCase() === name);
    return byId ?? own ?? catalogue ?? null;
  }
}
