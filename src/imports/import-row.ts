import type { FieldErrors } from '../platform/errors';
import { BillingType, Cycle, RecordType, Status } from '../subscriptions/codes';
import type { SubscriptionInput } from '../subscriptions/subscription.input';
import { type DateOrder, readCycle, readDate, readPrice, readSwitch } from './import-values';

/** The fields of a record an import row gives as values (its links are names, resolved by the service). */
export type ImportValues = Omit<
  SubscriptionInput,
  'product' | 'folderId' | 'alertId' | 'categoryId' | 'paymentModeId' | 'tags'
>;

/** One record of a file, read into the domain's terms but not yet checked against the account. */
export interface ImportRow {
  /** Where it is: the line it starts on in a CSV file, its place (from 1) in a JSON list. */
  line: number;
  /** The product: a catalogue product of this name, else a private one. */
  name: string;
  values: Partial<ImportValues>;
  links: {
    category: string | null;
    folder: string | null;
    paymentMode: string | null;
    tags: string[];
    notify: boolean;
  };
  /** What the reader assumed or set aside, for the dry run to show. */
  notes: string[];
  /** Values the reader could not read, by the record's field. */
  problems: FieldErrors;
  /** What only a Subledger export restores: the record's ids in the file, its alerts, its product and when it was made. */
  restore?: RestoredParts;
}

export interface RestoredParts {
  id: number;
  mainId: number | null;
  productId: number | null;
  alertIds: number[];
  categoryId: number | null;
  createdAt: string | null;
  /** Its stored price steps, its paid and skipped payments, and its payer and split (the file's member ids). */
  priceHistory: Array<{ effective_from: string; price: string }>;
  payments: Array<{
    due_date: string;
    expected_amount: string;
    currency: string;
    status: 'paid' | 'skipped';
    paid_amount: string | null;
    paid_on: string | null;
    note: string | null;
  }>;
  sharing: {
    payer_member_id: number;
    mode: 'equal' | 'amounts' | 'percentages';
    shares: Array<{ member_id: number; value: string | null }>;
  } | null;
}

/** A record as other trackers and spreadsheets give one: text under known names (the CSV mapping's fields). */
export interface LooseRecord {
  name?: string;
  price?: string;
  currency?: string;
  cycle?: string;
  frequency?: string;
  paymentDate?: string;
  category?: string;
  folder?: string;
  paymentMethod?: string;
  tags?: string;
  notes?: string;
  description?: string;
  url?: string;
  active?: string;
  status?: string;
  notify?: string;
  type?: string;
  cancellationDate?: string;
  paidBy?: string;
}

export interface LooseReading {
  /** The currency of prices without one, and of ambiguous symbols ($, ¥, kr) when it is one of theirs. */
  currency: string;
  dateOrder?: DateOrder;
}

const STATUS_WORDS: Record<string, Status> = {
  draft: Status.Draft,
  active: Status.Active,
  cancel: Status.Cancelled,
  cancelled: Status.Cancelled,
  canceled: Status.Cancelled,
  refund: Status.Refunded,
  refunded: Status.Refunded,
  expired: Status.Expired,
};
const TYPE_WORDS: Record<string, RecordType> = {
  subscription: RecordType.Subscription,
  trial: RecordType.Trial,
  lifetime: RecordType.Lifetime,
};

const present = (text: string | undefined): text is string => text !== undefined && text.trim() !== '';

/** A loose record read into a row: each value read by its reader, each doubt noted, each failure a problem. */
export function rowFromLoose(line: number, loose: LooseRecord, reading: LooseReading): ImportRow {
  const notes: string[] = [];
  const problems: FieldErrors = {};
  const fail = (field: string, message: string) => (problems[field] ??= []).push(message);
  const values: Partial<ImportValues> = {
    billingType: BillingType.CalendarDate,
    status: Status.Active,
    recurring: 1,
    type: RecordType.Subscription,
  };

  const name = loose.name?.trim() ?? '';
  if (name === '') fail('brand_id', 'The row has no name.');

  const price = readPrice(loose.price ?? '', loose.currency?.trim().toUpperCase() || reading.currency);
  if (price.amount === null) fail('price', `"${loose.price ?? ''}" is not a price.`);
  else values.price = price.amount.replace(/^-/, '');
  if (price.amount?.startsWith('-')) fail('price', 'The price must be at least 0.');
  values.currency = present(loose.currency)
    ? loose.currency.trim().toUpperCase()
    : (price.currency ?? reading.currency);
  if (price.ambiguous && !present(loose.currency))
    notes.push(
      `"${price.ambiguous.symbol}" read as ${values.currency} (it may be ${price.ambiguous.candidates.join(', ')}).`,
    );
  if (!price.currency && !present(loose.currency)) notes.push(`No currency given: ${values.currency}.`);

  const type = loose.type?.trim().toLowerCase();
  if (present(type)) {
    if (TYPE_WORDS[type] !== undefined) values.type = TYPE_WORDS[type];
    else if (type === 'one-time' || type === 'once') values.recurring = 0;
    else fail('type', `"${loose.type}" is not a type (Subscription, Trial, Lifetime).`);
  }
  if (values.type === RecordType.Lifetime) values.recurring = 0;

  const frequency = present(loose.frequency) ? Number(loose.frequency.trim()) : undefined;
  if (frequency !== undefined && !Number.isInteger(frequency))
    fail('billing_frequency', `"${loose.frequency}" is not a whole number.`);
  const cycle = present(loose.cycle) ? readCycle(loose.cycle, frequency) : null;
  if (present(loose.cycle) && !cycle) {
    if (/^(one[- ]?time|once|lifetime|never)$/i.test(loose.cycle.trim())) values.recurring = 0;
    else fail('billing_cycle', `"${loose.cycle}" is not a billing period (e.g. Monthly, Every 3 Months).`);
  }
  Object.assign(values, {
    billingCycle: cycle?.cycle ?? Cycle.Monthly,
    billingFrequency: cycle?.frequency ?? frequency ?? 1,
  });
  if (!present(loose.cycle) && values.recurring === 1) notes.push('No billing period given: monthly.');

  const date = readDate(loose.paymentDate ?? '', reading.dateOrder);
  if (date.date) values.paymentDate = date.date;
  else fail('payment_date', present(loose.paymentDate) ? date.problem! : 'The row has no payment date.');

  const status = loose.status?.trim().toLowerCase();
  if (present(status)) {
    const switched = readSwitch(status);
    const code = STATUS_WORDS[status] ?? (switched === null ? undefined : switched ? Status.Active : Status.Cancelled);
    if (code === undefined)
      fail('status', `"${loose.status}" is not a status (Active, Cancel, Refund, Expired, Draft).`);
    else values.status = code;
  }
  if (present(loose.active) && readSwitch(loose.active) === false) values.status = Status.Cancelled;

  if (present(loose.cancellationDate)) {
    const cancellation = readDate(loose.cancellationDate, reading.dateOrder);
    if (cancellation.date) {
      values.contractExpiry = cancellation.date;
      notes.push(`Cancellation date ${cancellation.date} kept as the contract end.`);
    } else fail('contract_expiry', cancellation.problem!);
  }

  const noteLines = [
    loose.notes,
    present(loose.url) ? loose.url.trim() : undefined,
    present(loose.paidBy) ? `Paid by ${loose.paidBy.trim()}` : undefined,
  ];
  const note = noteLines.filter(present).join('\n');
  if (note !== '') values.note = note;
  if (present(loose.url)) notes.push('The URL is kept in the note (a record takes its web address from its product).');
  if (present(loose.description)) values.description = loose.description;

  const tags = present(loose.tags)
    ? loose.tags
        .split(/[,;|]/)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '')
    : [];
  return {
    line,
    name,
    values,
    links: {
      category: present(loose.category) ? loose.category.trim() : null,
      folder: present(loose.folder) ? loose.folder.trim() : null,
      paymentMode: present(loose.paymentMethod) ? loose.paymentMethod.trim() : null,
      tags: [...new Set(tags)],
      notify: present(loose.notify) ? readSwitch(loose.notify) !== false : true,
    },
    notes,
    problems,
  };
}
