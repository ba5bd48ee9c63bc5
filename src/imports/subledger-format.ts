import { ACCOUNT_EXPORT_FORMAT, type AccountExport } from '../exports/account-export.service';
import { AppError } from '../platform/errors';
import { jsonValues, type PeekedFile } from './file-reading';
import type { FieldErrors } from '../platform/errors';
import { isCalendarDate } from '../platform/dates';
import { moneyProblem } from '../subscriptions/subscription.input';
import type { ImportRow, ImportValues } from './import-row';

/** The parts of an account document besides its records. */
export type AccountParts = Omit<AccountExport, 'subscriptions' | 'exportedAt' | 'format' | 'version'>;
type ExportedRecord = AccountExport['subscriptions'][number];

const SQL_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const PARTS = ['profile', 'settings', 'folders', 'tags', 'paymentModes', 'categories', 'alerts', 'webhookEndpoints', 'budgets', 'household'] as const;

/** A Subledger account document (GET /export/account.json), read as its records stream in. */
export async function readAccountDocument(file: PeekedFile): Promise<{ parts: AccountParts; rows: ImportRow[] }> {
  const parts: Partial<AccountParts> = {};
  const header: Record<string, unknown> = {};
  const records: ExportedRecord[] = [];
  const paths = ['$.format', '$.version', ...PARTS.map((part) => `$.${part}`), '$.subscriptions.*'];
  for await (const { key, depth, value } of jsonValues(file, paths)) {
    if (depth === 2) records.push(value as ExportedRecord);
    else if (key === 'format' || key === 'version') header[key] = value;
    else (parts as Record<string, unknown>)[key as string] = value;
  }
  if (header.format !== ACCOUNT_EXPORT_FORMAT.format || header.version !== ACCOUNT_EXPORT_FORMAT.version) {
    throw AppError.badInput(`The file is not a Subledger account export (format ${ACCOUNT_EXPORT_FORMAT.format}, version ${ACCOUNT_EXPORT_FORMAT.version}).`);
  }
  const complete = {
    profile: parts.profile ?? null,
    settings: parts.settings ?? null,
    folders: parts.folders ?? [],
    tags: parts.tags ?? [],
    paymentModes: parts.paymentModes ?? [],
    categories: parts.categories ?? [],
    alerts: parts.alerts ?? [],
    webhookEndpoints: parts.webhookEndpoints ?? [],
    // Absent from exports made before budgets and households existed.
    budgets: parts.budgets ?? [],
    household: parts.household ?? null,
  } as AccountParts;
  return { parts: complete, rows: records.map((record, index) => rowOfRecord(index + 1, record, complete)) };
}

/** An exported record as a row: its values as they were, its links by the names the document gives them. */
function rowOfRecord(position: number, record: ExportedRecord, parts: AccountParts): ImportRow {
  const nameOf = (rows: Array<{ id: number; name: string }>, id: number | null) => rows.find((row) => row.id === id)?.name ?? null;
  const values: Partial<ImportValues> = {
    type: record.type,
    price: String(record.price),
    currency: record.price_type,
    billingType: record.billing_type,
    billingFrequency: record.billing_frequency,
    billingCycle: record.billing_cycle,
    paymentDate: record.payment_date,
    status: record.status,
    recurring: record.recurring,
    description: record.description,
    discountVoucher: record.discount_voucher,
    note: record.note,
    companyName: record.company_name,
    rating: record.rating,
    ltdvalPrice: record.ltdval_price,
    ltdvalCycle: record.ltdval_cycle,
    ltdvalFrequency: record.ltdval_frequency,
    refundDays: record.refund_days,
    expiryDate: record.expiry_date,
    contractExpiry: record.contract_expiry,
    // Exports made before the notice period existed have none.
    contractNoticeDays: record.contract_notice_days ?? null,
    timezone: record.timezone,
  };
  const ownCategory = parts.categories.some((category) => category.id === record.category_id);
  return {
    line: position,
    name: record.product_name,
    values,
    links: {
      category: ownCategory ? nameOf(parts.categories, record.category_id) : null,
      folder: nameOf(parts.folders, record.folder_id),
      paymentMode: nameOf(parts.paymentModes, record.payment_mode_id),
      tags: record.tags,
      notify: record.alert_id !== 0,
    },
    notes: [],
    problems: moneyPartProblems(record),
    restore: {
      id: record.id,
      mainId: record.sub_addon === 1 ? record.sub_id : null,
      // A catalogue product (it has a brand name) is the same product here; a private one is made by name.
      productId: record.brandname === null ? null : record.brand_id,
      alertIds: record.alert_ids,
      categoryId: ownCategory ? null : record.category_id,
      // Stored as given when it is a UTC timestamp (YYYY-MM-DD HH:MM:SS), as the export writes it.
      createdAt: typeof record.created_at === 'string' && SQL_SECONDS.test(record.created_at) ? record.created_at : null,
      priceHistory: record.price_history ?? [],
      payments: record.payments ?? [],
      sharing: record.sharing ?? null,
    },
  };
}

/** The problems of a record's money parts as the file gives them (a hand-edited file may hold anything). */
function moneyPartProblems(record: ExportedRecord): FieldErrors {
  const problems: FieldErrors = {};
  const money = (value: unknown) => typeof value === 'string' && moneyProblem('amount', value) === null;
  const day = (value: unknown) => typeof value === 'string' && isCalendarDate(value);
  if (!(record.price_history ?? []).every((step) => day(step.effective_from) && money(step.price))) {
    problems.price_history = ['Each price step needs an effective_from date and a price.'];
  }
  const settled = (entry: NonNullable<ExportedRecord['payments']>[number]) =>
    day(entry.due_date) &&
    money(entry.expected_amount) &&
    typeof entry.currency === 'string' &&
    (entry.status === 'skipped' || (entry.status === 'paid' && money(entry.paid_amount) && day(entry.paid_on))) &&
    (entry.note === null || (typeof entry.note === 'string' && entry.note.length <= 1000));
  if (!(record.payments ?? []).every(settled))
    problems.payments = ['Each payment needs its due_date, amounts, currency and status (paid with paid_amount and paid_on, or skipped).'];
  return problems;
}
