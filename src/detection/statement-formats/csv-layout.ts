import type { CsvLayout, CsvMapping } from '../statement';

/**
 * How a bank's CSV export is laid out: its separator, where its header is (banks put the account and the
 * period above it), and which columns hold what, recognised from header names in the languages banks write.
 */

export type Separator = CsvLayout['separator'];

/** A parsed CSV record: its trimmed cells and the line it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** The header is looked for in the first rows only: preambles are a few lines long. */
const HEADER_SEARCH_ROWS = 10;

const DATE_CELL = /^(\d{1,4})[./-](\d{1,2})[./-](\d{2,4})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/;
/** YYYYMMDD, as Dutch banks write dates. */
const COMPACT_DATE_CELL = /^(\d{4})(\d{2})(\d{2})$/;
const AMOUNT_CELL = /^[-+(]?[\d.,'\s\u00a0\u202f]*\d[-)]?(?:\s?[€$£]|\s?[A-Z]{3})?$/;

function looksLikeDate(cell: string): boolean {
  return dateParts(cell) !== null;
}

/** The day, month and year parts of a written date (year, month, day when it starts with the year), or null. */
export function dateParts(cell: string): [string, string, string] | null {
  const match = DATE_CELL.exec(cell) ?? COMPACT_DATE_CELL.exec(cell);
  return match ? [match[1], match[2], match[3]] : null;
}

function looksLikeAmount(cell: string): boolean {
  return AMOUNT_CELL.test(cell) && !looksLikeDate(cell);
}

/**
 * Header names per field, the most telling first, lower case without accents or punctuation (see
 * `headerName`): a file with a booking and a value date maps the booking date.
 */
const FIELD_NAMES = {
  date: [
    'date',
    'booking date',
    'transaction date',
    'posting date',
    'posted date',
    'datum',
    'buchungstag',
    'buchungsdatum',
    'valuta',
    'valutadatum',
    'wertstellung',
    'date operation',
    'date de l operation',
    'date comptable',
    'date valeur',
    'transactiedatum',
    'boekdatum',
    'fecha',
    'fecha operacion',
    'fecha valor',
  ],
  payee: [
    'payee',
    'beneficiary',
    'counterparty',
    'merchant',
    'name',
    'empfanger',
    'empfaenger',
    'zahlungsempfanger',
    'zahlungsempfaenger',
    'auftraggeber',
    'auftraggeber empfanger',
    'begunstigter zahlungspflichtiger',
    'beguenstigter zahlungspflichtiger',
    'name zahlungsbeteiligter',
    'naam',
    'naam omschrijving',
    'tegenpartij',
    'beneficiaire',
    'tiers',
    'beneficiario',
    'description',
    'libelle',
    'omschrijving',
    'concepto',
  ],
  description: [
    'memo',
    'details',
    'reference',
    'verwendungszweck',
    'buchungstext',
    'mededelingen',
    'omschrijving',
    'communication',
    'libelle',
    'description',
    'concepto',
    'referencia',
    'observaciones',
  ],
  amount: ['amount', 'betrag', 'umsatz', 'montant', 'bedrag', 'importe'],
  debit: ['debit', 'withdrawal', 'withdrawals', 'money out', 'paid out', 'soll', 'ausgang', 'af', 'cargo', 'debe'],
  credit: ['credit', 'deposit', 'deposits', 'money in', 'paid in', 'haben', 'eingang', 'bij', 'abono', 'haber'],
  currency: ['currency', 'ccy', 'wahrung', 'waehrung', 'devise', 'munt', 'moneda', 'divisa'],
} satisfies Record<string, string[]>;

/** A header cell as it is compared: lower case, without accents, unit suffixes ("Betrag (EUR)") or punctuation. */
function headerName(cell: string): string {
  return cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\(.*?\)/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The column of the first name of the field that the header has, leaving out columns already mapped. */
function columnNamed(header: string[], names: string[], taken: Set<string>): string | undefined {
  const normalised = header.map(headerName);
  for (const name of names) {
    const index = normalised.indexOf(name);
    if (index !== -1 && !taken.has(header[index])) return header[index];
  }
  return undefined;
}

/** The mapping the header's names give, or undefined when it lacks a date, a payee or any amount column. */
export function detectMapping(header: string[]): CsvMapping | undefined {
  const taken = new Set<string>();
  const take = (names: string[]) => {
    const column = columnNamed(header, names, taken);
    if (column !== undefined) taken.add(column);
    return column;
  };
  // The amounts and the date first: their names are the least ambiguous ("Description" may be the payee).
  const amount = take(FIELD_NAMES.amount);
  const debit = take(FIELD_NAMES.debit);
  const credit = take(FIELD_NAMES.credit);
  const currency = take(FIELD_NAMES.currency);
  const date = take(FIELD_NAMES.date);
  const payee = take(FIELD_NAMES.payee);
  const description = take(FIELD_NAMES.description);
  if (!date || !payee || !(amount || debit || credit)) return undefined;
  return { date, payee, description, amount, debit, credit, currency };
}

function namesADateAndAnAmount(cells: string[]): boolean {
  const names = cells.map(headerName);
  const has = (fields: string[][]) => names.some((name) => fields.some((field) => field.includes(name)));
  return has([FIELD_NAMES.date]) && has([FIELD_NAMES.amount, FIELD_NAMES.debit, FIELD_NAMES.credit]);
}

/** Most cells are words: not empty, not amounts, not dates. */
function looksLikeHeader(cells: string[]): boolean {
  const words = cells.filter((cell) => cell !== '' && !looksLikeAmount(cell) && !looksLikeDate(cell));
  return cells.length >= 2 && words.length > cells.length / 2;
}

function looksLikeData(cells: string[]): boolean {
  return cells.some(looksLikeDate) && cells.some(looksLikeAmount);
}

/**
 * The index of the header among the records, or -1 when there is none: the first row naming a date and an
 * amount, or else a row of words just above the first row of data (a header in words the mapping lacks).
 */
export function headerIndex(records: CsvRecord[]): number {
  const searched = records.slice(0, HEADER_SEARCH_ROWS);
  const named = searched.findIndex(({ cells }) => looksLikeHeader(cells) && namesADateAndAnAmount(cells));
  if (named !== -1) return named;
  const firstData = records.slice(0, HEADER_SEARCH_ROWS + 1).findIndex(({ cells }) => looksLikeData(cells));
  if (firstData < 1) return -1;
  const above = records[firstData - 1].cells;
  return above.length === records[firstData].cells.length && looksLikeHeader(above) ? firstData - 1 : -1;
}

/** Where the rows start when there is no header: at the first row of data, below any preamble. */
export function firstDataIndex(records: CsvRecord[]): number {
  return Math.max(
    0,
    records.slice(0, HEADER_SEARCH_ROWS + 1).findIndex(({ cells }) => looksLikeData(cells)),
  );
}

/** The layout's key: mappings are remembered by it. */
export function layoutKey(separator: Separator, header: string[], columns: number): string {
  return header.length > 0
    ? [separator, ...header.map((cell) => cell.toLowerCase())].join('|')
    : `${separator}|${columns}`;
}
