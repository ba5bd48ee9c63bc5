import { AppError } from '../platform/errors';
import { csvRecords, firstCharacter, jsonValues, type PeekedFile } from './file-reading';
import { type ImportRow, type LooseReading, type LooseRecord, rowFromLoose } from './import-row';

/** The fields a CSV column can be mapped to. */
export type LooseField = keyof LooseRecord;

/** Which column (by its header) holds which field; given fields override the detected ones. */
export type ColumnMapping = Partial<Record<LooseField, string>>;

/**
 * Headers that name each field, compared lower-case without spaces or punctuation: the common ones of
 * spreadsheets and trackers, and Wallos' export (its "Categpry" included, a typo of its older versions).
 */
const HEADER_NAMES: Record<LooseField, string[]> = {
  name: [
    'name',
    'product',
    'productname',
    'service',
    'subscription',
    'subscriptionname',
    'title',
    'brand',
    'brandname',
  ],
  price: ['price', 'amount', 'cost', 'fee'],
  currency: ['currency', 'currencycode', 'pricetype'],
  cycle: ['paymentcycle', 'cycle', 'billingcycle', 'billingperiod', 'period', 'interval', 'recurrence', 'frequency'],
  frequency: ['billingfrequency', 'every', 'intervalcount'],
  paymentDate: [
    'nextpayment',
    'nextpaymentdate',
    'nextbillingdate',
    'nextrenewal',
    'renewaldate',
    'paymentdate',
    'duedate',
    'billingdate',
    'startdate',
    'date',
  ],
  category: ['category', 'categpry'],
  folder: ['folder', 'group'],
  paymentMethod: ['paymentmethod', 'paymentmode', 'paidwith', 'card'],
  tags: ['tags', 'tag', 'labels'],
  notes: ['notes', 'note', 'comment', 'comments', 'memo'],
  description: ['description'],
  url: ['url', 'website', 'link', 'homepage'],
  active: ['active', 'enabled'],
  status: ['status', 'state'],
  notify: ['notifications', 'notify', 'reminder', 'reminders'],
  type: ['type'],
  cancellationDate: ['cancellationdate', 'canceldate', 'cancelby'],
  paidBy: ['paidby', 'payer'],
};

const simplified = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Each field's column: the mapping's, else the first header that names it. A "frequency" header holding the
 * period in words is the cycle when no other column is; with a cycle column beside it, it is the count.
 */
export function detectColumns(headers: string[], mapping: ColumnMapping = {}): Map<LooseField, number> {
  const columns = new Map<LooseField, number>();
  const used = new Set<number>();
  for (const [field, header] of Object.entries(mapping) as Array<[LooseField, string]>) {
    const index = headers.findIndex((candidate) => simplified(candidate) === simplified(header));
    if (index < 0)
      throw AppError.field(
        `mapping.${field}`,
        `The column "${header}" is not in the file's header (${headers.join(', ')}).`,
      );
    columns.set(field, index);
    used.add(index);
  }
  for (const field of Object.keys(HEADER_NAMES) as LooseField[]) {
    if (columns.has(field)) continue;
    for (const name of HEADER_NAMES[field]) {
      const index = headers.findIndex((header, position) => !used.has(position) && simplified(header) === name);
      if (index < 0) continue;
      columns.set(field, index);
      used.add(index);
      break;
    }
  }
  const cycle = columns.get('cycle');
  if (cycle !== undefined && simplified(headers[cycle]) === 'frequency' && !columns.has('frequency')) {
    const other = headers.findIndex(
      (header, position) =>
        position !== cycle && ['cycle', 'billingcycle', 'period', 'unit'].includes(simplified(header)),
    );
    if (other >= 0) {
      columns.set('frequency', cycle);
      columns.set('cycle', other);
    }
  }
  const missing = (['name', 'price', 'paymentDate'] as const).filter((field) => !columns.has(field));
  if (missing.length > 0) {
    throw AppError.badInput(
      `No column found for ${missing.join(', ')} in the header (${headers.join(', ')}): map them (mapping: {field: "Column"}).`,
    );
  }
  return columns;
}

/** The rows of a CSV file with a header row; a row whose field count differs from the header's is refused. */
export async function* csvRows(
  file: PeekedFile,
  reading: LooseReading,
  mapping?: ColumnMapping,
  adjust: (loose: LooseRecord) => LooseRecord = (loose) => loose,
): AsyncGenerator<ImportRow> {
  let columns: Map<LooseField, number> | null = null;
  let width = 0;
  for await (const { line, fields } of csvRecords(file)) {
    if (!columns) {
      columns = detectColumns(fields, mapping);
      width = fields.length;
      continue;
    }
    const loose: LooseRecord = {};
    for (const [field, index] of columns) loose[field] = fields[index];
    const row = rowFromLoose(line, adjust(loose), reading);
    if (fields.length !== width) {
      (row.problems.row ??= []).push(
        `The row has ${fields.length} fields and the header ${width}: an unquoted delimiter or line break in a value?`,
      );
    }
    yield row;
  }
  if (!columns) throw AppError.badInput('The file is empty.');
}

/**
 * Wallos' exports (profile → export, endpoints/subscriptions/export.php): the JSON file is the list of
 * records (the endpoint's own answer, {"success", "subscriptions"}, is read too); the CSV file is the same
 * records joined with commas, header first.
 */
export async function* wallosRows(file: PeekedFile, reading: LooseReading): AsyncGenerator<ImportRow> {
  const first = firstCharacter(file);
  if (first !== '[' && first !== '{') {
    yield* csvRows(file, reading, {}, withoutWallosDefaults);
    return;
  }
  let position = 0;
  // Wallos writes every record with the same keys: the columns are found once per distinct key list.
  const columnsOf = new Map<string, Map<LooseField, number>>();
  for await (const { key, value } of jsonValues(file, first === '[' ? ['$.*'] : ['$.subscriptions.*', '$.success'])) {
    if (key === 'success') {
      if (value !== true) throw AppError.badInput('The file is a failed Wallos export ("success": false).');
      continue;
    }
    position += 1;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { ...rowFromLoose(position, {}, reading), problems: { row: ['The record is not a JSON object.'] } };
      continue;
    }
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([header, text]) => [header, text === null ? '' : String(text)] as const,
    );
    const headers = entries.map(([header]) => header);
    const headerKey = JSON.stringify(headers);
    if (!columnsOf.has(headerKey)) columnsOf.set(headerKey, detectColumns(headers));
    const columns = columnsOf.get(headerKey)!;
    const loose: LooseRecord = {};
    for (const [field, index] of columns) loose[field] = entries[index][1];
    yield rowFromLoose(position, withoutWallosDefaults(loose), reading);
  }
}

/** Wallos files records without a category under its seeded "No category": here they have none. */
function withoutWallosDefaults(loose: LooseRecord): LooseRecord {
  return loose.category?.trim() === WALLOS_NO_CATEGORY ? { ...loose, category: undefined } : loose;
}
const WALLOS_NO_CATEGORY = 'No category';
