import { ACCOUNT_EXPORT_FORMAT, type AccountExport } from '../exports/account-export.service';
import { SPLIT_MODES } from '../households/household.entity';
import { isCalendarDate } from '../platform/dates';
import type { FieldErrors } from '../platform/errors';
import { AppError } from '../platform/errors';
import { moneyProblem } from '../subscriptions/subscription.input';
import { jsonValues, type PeekedFile } from './file-reading';
import type { ImportRow, ImportValues, RestoredParts } from './import-row';

/** The parts of an account document besides its records. */
export type AccountParts = Omit<AccountExport, 'subscriptions' | 'exportedAt' | 'format' | 'version'>;
type ExportedRecord = AccountExport['subscriptions'][number];

const SQL_SECONDS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const PARTS = [
  'profile',
  'settings',
  'folders',
  'tags',
  'paymentModes',
  'categories',
  'alerts',
  'webhookEndpoints',
  'budgets',
  'household',
] as const;

/** What a field of the document holds, as the export writes it. */
type Kind = 'id' | 'integer' | 'text' | 'flag' | 'texts' | 'ids' | 'value';
/** A field's kind; `|null` when it may be null, `?` when it may be absent. */
type Spec = `${Kind}${'' | '|null'}${'' | '?'}`;
type Specs = Readonly<Record<string, Spec>>;

const MAX_INT = 2_147_483_647;
const isInteger = (value: unknown): value is number => Number.isInteger(value) && Math.abs(value as number) <= MAX_INT;
const isId = (value: unknown): value is number => isInteger(value) && value >= 1;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const KINDS: Record<Kind, { holds: (value: unknown) => boolean; words: string }> = {
  id: { holds: isId, words: 'a whole number of at least 1' },
  integer: { holds: isInteger, words: 'a whole number' },
  text: { holds: (value) => typeof value === 'string', words: 'text' },
  flag: { holds: (value) => typeof value === 'boolean', words: 'true or false' },
  texts: {
    holds: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
    words: 'a list of texts',
  },
  ids: { holds: (value) => Array.isArray(value) && value.every(isId), words: 'a list of whole numbers of at least 1' },
  value: { holds: (value) => typeof value === 'string' || typeof value === 'number', words: 'a number or text' },
};

/**
 * The fields of each part the import reads (an account's own rows and their ids within the document); any
 * other key of the file (an owner, a user_id, a row's id where the import makes the row anew) is never read.
 */
const PART_FIELDS = {
  profile: { baseCurrency: 'text?', timezone: 'text?' },
  settings: { autoDetectSubscriptions: 'integer?', browserNotifications: 'integer?', notifyBefore: 'integer?' },
  folders: { id: 'id', name: 'text', color: 'text|null?', isDefault: 'flag?' },
  tags: { id: 'id', name: 'text' },
  paymentModes: { id: 'id', name: 'text' },
  categories: { id: 'id', name: 'text' },
  alerts: {
    id: 'id',
    name: 'text',
    timePeriod: 'integer',
    timeCycle: 'integer|null?',
    time: 'text',
    timezone: 'text',
    condition: 'integer',
    channel: 'integer',
    contact: 'text|null?',
    subjects: 'integer',
  },
  webhookEndpoints: { url: 'text', events: 'texts', enabled: 'flag' },
  budgets: { categoryId: 'id|null', amount: 'text', alertId: 'id|null' },
  household: { name: 'text' },
} as const satisfies Record<(typeof PARTS)[number], Specs>;
const MEMBER_FIELDS = { id: 'id', name: 'text', isOwner: 'flag', canEdit: 'flag' } as const satisfies Specs;

/** A record's links: its id and its main record's in the document, the document's rows it names, its product. */
const RECORD_LINKS = {
  id: 'id',
  sub_addon: 'integer?',
  sub_id: 'id|null?',
  product_name: 'text',
  brandname: 'text|null?',
  brand_id: 'integer|null?',
  folder_id: 'integer|null?',
  payment_mode_id: 'integer|null?',
  category_id: 'integer|null?',
  alert_id: 'integer|null?',
  alert_ids: 'ids?',
  tags: 'texts?',
} as const satisfies Specs;
/** A record's values, checked by the record rules as any create's. */
const RECORD_VALUES = Object.fromEntries(
  [
    'type',
    'price',
    'price_type',
    'billing_type',
    'billing_frequency',
    'billing_cycle',
    'payment_date',
    'status',
    'recurring',
    'description',
    'discount_voucher',
    'note',
    'company_name',
    'rating',
    'ltdval_price',
    'ltdval_cycle',
    'ltdval_frequency',
    'refund_days',
    'expiry_date',
    'contract_expiry',
    'contract_notice_days',
    'timezone',
  ].map((name) => [name, 'value|null?']),
) as Specs;
const SHARING_FIELDS = { payer_member_id: 'id', mode: 'text' } as const satisfies Specs;
const SHARE_FIELDS = { member_id: 'id', value: 'text|null?' } as const satisfies Specs;

/**
 * The fields of a document's object that `specs` names, each checked to be of its kind, and nothing else of
 * it. A field of another kind is a problem under its path (`path.field`, or the field's name at the top of a
 * record) and is left out.
 */
function picked(value: unknown, specs: Specs, path: string, problems: FieldErrors): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (!isObject(value)) {
    (problems[path] ??= []).push(`The ${path} must be a JSON object.`);
    return fields;
  }
  for (const [name, spec] of Object.entries(specs)) {
    const kind = KINDS[spec.replace(/\|null|\?/g, '') as Kind];
    const nullable = spec.includes('|null');
    const field = value[name];
    const fits = field === undefined ? spec.endsWith('?') : field === null ? nullable : kind.holds(field);
    if (fits && field !== undefined) fields[name] = field;
    if (fits) continue;
    const key = path ? `${path}.${name}` : name;
    (problems[key] ??= []).push(`The ${key} must be ${kind.words}${nullable ? ' or null' : ''}.`);
  }
  return fields;
}

/** A list of a document's objects, each read with `specs` (absent or null: none). */
function pickedList(value: unknown, specs: Specs, path: string, problems: FieldErrors): Array<Record<string, unknown>> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    (problems[path] ??= []).push(`The ${path} must be a list.`);
    return [];
  }
  return value.map((item, index) => picked(item, specs, `${path}[${index}]`, problems));
}

/** The document's parts as the import reads them: the known fields of each, checked; a part the file gets wrong refuses it. */
function readParts(raw: Record<string, unknown>): AccountParts {
  const problems: FieldErrors = {};
  const one = (part: 'profile' | 'settings' | 'household') =>
    raw[part] === undefined || raw[part] === null ? null : picked(raw[part], PART_FIELDS[part], part, problems);
  const list = (part: Exclude<(typeof PARTS)[number], 'profile' | 'settings' | 'household'>) =>
    pickedList(raw[part], PART_FIELDS[part], part, problems);
  const household = one('household');
  const parts = {
    profile: one('profile'),
    settings: one('settings'),
    folders: list('folders'),
    tags: list('tags'),
    paymentModes: list('paymentModes'),
    categories: list('categories'),
    alerts: list('alerts'),
    webhookEndpoints: list('webhookEndpoints'),
    // Absent from exports made before budgets and households existed.
    budgets: list('budgets'),
    household: household && {
      ...household,
      members: pickedList(
        isObject(raw.household) ? raw.household.members : undefined,
        MEMBER_FIELDS,
        'household.members',
        problems,
      ),
    },
  };
  const paths = Object.keys(problems);
  if (paths.length > 0) {
    throw AppError.badInput(
      `The file's account parts are not as an export writes them (${paths.length} ${paths.length === 1 ? 'problem' : 'problems'}), so nothing was imported.`,
      Object.fromEntries(paths.slice(0, 100).map((path) => [path, problems[path]])),
    );
  }
  return parts as unknown as AccountParts;
}

/** A Subledger account document (GET /export/account.json), read as its records stream in. */
export async function readAccountDocument(file: PeekedFile): Promise<{ parts: AccountParts; rows: ImportRow[] }> {
  const raw: Record<string, unknown> = {};
  const header: Record<string, unknown> = {};
  const records: unknown[] = [];
  const paths = ['$.format', '$.version', ...PARTS.map((part) => `$.${part}`), '$.subscriptions.*'];
  for await (const { key, depth, value } of jsonValues(file, paths)) {
    if (depth === 2) records.push(value);
    else if (key === 'format' || key === 'version') header[key] = value;
    else raw[key as string] = value;
  }
  if (header.format !== ACCOUNT_EXPORT_FORMAT.format || header.version !== ACCOUNT_EXPORT_FORMAT.version) {
    throw AppError.badInput(
      `The file is not a Subledger account export (format ${ACCOUNT_EXPORT_FORMAT.format}, version ${ACCOUNT_EXPORT_FORMAT.version}).`,
    );
  }
  const parts = readParts(raw);
  return { parts, rows: records.map((record, index) => rowOfRecord(index + 1, record, parts)) };
}

/**
 * An exported record as a row: its values as they were, its links by the names the document gives them. Only
 * the fields an export writes are read, each of its kind (a field of another kind refuses the row); the ids
 * it holds are the document's own, never rows of the database.
 */
function rowOfRecord(position: number, raw: unknown, parts: AccountParts): ImportRow {
  if (!isObject(raw)) {
    const links = { category: null, folder: null, paymentMode: null, tags: [], notify: false };
    return {
      line: position,
      name: '',
      values: {},
      links,
      notes: [],
      problems: { row: ['The record is not a JSON object.'] },
    };
  }
  const problems: FieldErrors = {};
  const record = {
    ...picked(raw, RECORD_LINKS, '', problems),
    ...picked(raw, RECORD_VALUES, '', problems),
  } as Partial<ExportedRecord>;
  const moneyPart = moneyParts(raw, problems);
  const nameOf = (rows: Array<{ id: number; name: string }>, id: number | null | undefined) =>
    rows.find((row) => row.id === id)?.name ?? null;
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
  const createdAt = raw.created_at;
  return {
    line: position,
    name: record.product_name ?? '',
    values,
    links: {
      category: ownCategory ? nameOf(parts.categories, record.category_id) : null,
      folder: nameOf(parts.folders, record.folder_id),
      paymentMode: nameOf(parts.paymentModes, record.payment_mode_id),
      tags: record.tags ?? [],
      notify: record.alert_id !== 0,
    },
    notes: [],
    problems,
    restore: {
      id: record.id ?? 0,
      mainId: record.sub_addon === 1 ? (record.sub_id ?? null) : null,
      // A catalogue product (it has a brand name) is the same product here; a private one is made by name.
      productId: record.brandname === null || record.brandname === undefined ? null : (record.brand_id ?? null),
      alertIds: record.alert_ids ?? [],
      categoryId: ownCategory ? null : (record.category_id ?? null),
      // Stored as given when it is a UTC timestamp (YYYY-MM-DD HH:MM:SS), as the export writes it.
      createdAt: typeof createdAt === 'string' && SQL_SECONDS.test(createdAt) ? createdAt : null,
      ...moneyPart,
    },
  };
}

/**
 * A record's money parts, their known fields only: its price steps, settled payments and sharing (the
 * document's member ids), each checked as the file gives it (a hand-edited file may hold anything).
 */
function moneyParts(
  record: Record<string, unknown>,
  problems: FieldErrors,
): Pick<RestoredParts, 'priceHistory' | 'payments' | 'sharing'> {
  const money = (value: unknown) => typeof value === 'string' && moneyProblem('amount', value) === null;
  const day = (value: unknown) => typeof value === 'string' && isCalendarDate(value);
  // A value that is not a list stands for one entry that is not an object: refused as such.
  const list = (value: unknown): unknown[] =>
    value === undefined || value === null ? [] : Array.isArray(value) ? value : [null];
  const steps = list(record.price_history);
  const priceHistory = steps
    .filter(isObject)
    .map((step) => ({ effective_from: step.effective_from as string, price: step.price as string }));
  if (
    priceHistory.length !== steps.length ||
    !priceHistory.every((step) => day(step.effective_from) && money(step.price))
  ) {
    problems.price_history = ['Each price step needs an effective_from date and a price.'];
  }
  const entries = list(record.payments);
  const payments = entries.filter(isObject).map((entry) => ({
    due_date: entry.due_date as string,
    expected_amount: entry.expected_amount as string,
    currency: entry.currency as string,
    status: entry.status as 'paid' | 'skipped',
    paid_amount: entry.paid_amount as string | null,
    paid_on: entry.paid_on as string | null,
    note: entry.note as string | null,
  }));
  const settled = (entry: RestoredParts['payments'][number]) =>
    day(entry.due_date) &&
    money(entry.expected_amount) &&
    typeof entry.currency === 'string' &&
    (entry.status === 'skipped' || (entry.status === 'paid' && money(entry.paid_amount) && day(entry.paid_on))) &&
    (entry.note === null || (typeof entry.note === 'string' && entry.note.length <= 1000));
  if (payments.length !== entries.length || !payments.every(settled))
    problems.payments = [
      'Each payment needs its due_date, amounts, currency and status (paid with paid_amount and paid_on, or skipped).',
    ];
  if (record.sharing === undefined || record.sharing === null) return { priceHistory, payments, sharing: null };
  const sharingProblems: FieldErrors = {};
  const sharing = picked(record.sharing, SHARING_FIELDS, 'sharing', sharingProblems);
  const shares = isObject(record.sharing)
    ? pickedList(record.sharing.shares, SHARE_FIELDS, 'sharing.shares', sharingProblems)
    : [];
  if (typeof sharing.mode === 'string' && !(SPLIT_MODES as readonly string[]).includes(sharing.mode))
    (sharingProblems['sharing.mode'] ??= []).push(`The sharing.mode must be one of ${SPLIT_MODES.join(', ')}.`);
  Object.assign(problems, sharingProblems);
  if (Object.keys(sharingProblems).length > 0) return { priceHistory, payments, sharing: null };
  return {
    priceHistory,
    payments,
    sharing: {
      payer_member_id: sharing.payer_member_id as number,
      mode: sharing.mode as 'equal' | 'amounts' | 'percentages',
      shares: shares.map((share) => ({
        member_id: share.member_id as number,
        value: (share.value ?? null) as string | null,
      })),
    },
  };
}
