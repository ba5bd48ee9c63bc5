import Decimal from 'decimal.js';

import { currencyOfMarker } from '../../imports/import-values';
import { AppError } from '../../platform/errors';
import type { BankTransaction, CsvLayout, CsvMapping, StatementReading } from '../statement';
import {
  type CsvRecord,
  dateParts,
  detectMapping,
  firstDataIndex,
  headerIndex,
  layoutKey,
  type Separator,
} from './csv-layout';
import { calendarDate, fullYear, lineError, parseAmount, singleSpaced } from './statement-values';

export interface CsvReadOptions {
  mapping?: CsvMapping;
  knownMappings?: (layoutKey: string) => CsvMapping | undefined;
  defaultCurrency: string;
}

/** The separator is judged on the first lines: enough for the preamble, the header and some rows. */
const SEPARATOR_SAMPLE_LINES = 20;
const SAMPLE_ROWS = 5;

/**
 * Reads a bank's CSV export: the separator, the header (below any preamble) and the columns are recognised,
 * or taken from the mapping given or remembered for the layout; without one, the layout is answered to map.
 */
export function readCsv(text: string, encoding: CsvLayout['encoding'], options: CsvReadOptions): StatementReading {
  const separator = detectSeparator(text);
  const records = csvRecords(text, separator);
  const index = headerIndex(records);
  const header = index === -1 ? [] : records[index].cells;
  const rows = index === -1 ? records.slice(firstDataIndex(records)) : records.slice(index + 1);
  const layout: CsvLayout = {
    separator,
    encoding,
    header,
    headerLine: index === -1 ? 0 : records[index].line,
    key: layoutKey(separator, header, rows[0]?.cells.length ?? 0),
  };
  const given = options.mapping ?? options.knownMappings?.(layout.key);
  const found = given ?? (header.length > 0 ? detectMapping(header) : undefined);
  if (!found) return { kind: 'needsMapping', layout, sample: rows.slice(0, SAMPLE_ROWS).map(({ cells }) => cells) };
  const columns = mappedColumns(found, layout, rows);
  const mapping = withWrittenForms(found, columns, rows);
  const transactions = rows.flatMap(
    (row) => transactionOf(row, mapping, columns, layout, options.defaultCurrency) ?? [],
  );
  return { kind: 'read', transactions, csv: { layout, mapping } };
}

/** The records of the text, each with the line it starts on; empty lines are left out. */
function csvRecords(text: string, separator: Separator, toLine?: number): CsvRecord[] {
  // The sync parser loads with the first statement read, not in every process.
  const { parse } = require('csv-parse/sync') as typeof import('csv-parse/sync');
  let parsed: Array<{ record: string[]; info: { lines: number } }>;
  try {
    parsed = parse(text, {
      delimiter: separator,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
      to_line: toLine,
    }) as unknown as typeof parsed; // `info: true` records are typed as plain records
  } catch (error) {
    throw lineError((error as { lines?: number }).lines ?? 1, `the CSV is not readable: ${(error as Error).message}`);
  }
  return parsed
    .map(({ record, info }) => ({
      // csv-parse counts the line a record ends on; a quoted cell may span lines.
      line: info.lines - record.reduce((sum, cell) => sum + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0),
      cells: record.map((cell) => cell.trim()),
    }))
    .filter(({ cells }) => cells.some((cell) => cell !== ''));
}

/** The separator that splits the most of the first lines into the same number of cells, weighted by that number. */
function detectSeparator(text: string): Separator {
  const scores = ([';', ',', '\t'] as const).map((separator) => {
    let records: CsvRecord[];
    try {
      records = csvRecords(text, separator, SEPARATOR_SAMPLE_LINES);
    } catch {
      return { separator, score: 0 };
    }
    const counts = new Map<number, number>();
    for (const { cells } of records)
      if (cells.length > 1) counts.set(cells.length, (counts.get(cells.length) ?? 0) + 1);
    const score = Math.max(0, ...[...counts].map(([width, rows]) => width * rows));
    return { separator, score };
  });
  return scores.reduce((best, candidate) => (candidate.score > best.score ? candidate : best)).separator;
}

type MappedColumns = Record<
  'date' | 'payee' | 'description' | 'amount' | 'debit' | 'credit' | 'currency',
  number | undefined
>;

/** The index of each mapped column: a header cell's text (case aside) or, without a header, a number from 1. */
function mappedColumns(mapping: CsvMapping, layout: CsvLayout, rows: CsvRecord[]): MappedColumns {
  const width = layout.header.length || Math.max(0, ...rows.map(({ cells }) => cells.length));
  const indexOf = (column: string | undefined) => {
    if (column === undefined) return undefined;
    const named = layout.header.findIndex((cell) => cell.toLowerCase() === column.trim().toLowerCase());
    if (named !== -1) return named;
    if (/^\d+$/.test(column) && Number(column) >= 1 && Number(column) <= width) return Number(column) - 1;
    throw AppError.badInput(`The file has no column "${column}"`);
  };
  const { date, payee, description, amount, debit, credit, currency } = mapping;
  return {
    date: indexOf(date),
    payee: indexOf(payee),
    description: indexOf(description),
    amount: indexOf(amount),
    debit: indexOf(debit),
    credit: indexOf(credit),
    currency: indexOf(currency),
  };
}

/** The mapping with the date order and decimal separator the values show, when the mapping leaves them open. */
function withWrittenForms(mapping: CsvMapping, columns: MappedColumns, rows: CsvRecord[]): CsvMapping {
  const cellsOf = (index: number | undefined) =>
    index === undefined ? [] : rows.map(({ cells }) => cells[index] ?? '').filter((cell) => cell !== '');
  const amounts = [columns.amount, columns.debit, columns.credit].flatMap(cellsOf);
  const dateOrder = mapping.dateOrder ?? dateOrderOf(cellsOf(columns.date));
  const decimalSeparator = mapping.decimalSeparator ?? decimalSeparatorOf(amounts);
  // What the values leave open stays open: a remembered mapping must not fix a guess for the next file.
  return { ...mapping, ...(dateOrder && { dateOrder }), ...(decimalSeparator && { decimalSeparator }) };
}

/** Day first when a first part is over 12, month first when a second one is; undefined when nothing tells. */
function dateOrderOf(dates: string[]): CsvMapping['dateOrder'] {
  const parts = dates
    .map(dateParts)
    .filter((parts): parts is [string, string, string] => parts !== null && parts[0].length < 3);
  if (parts.some(([first]) => Number(first) > 12)) return 'DMY';
  if (parts.some(([, second]) => Number(second) > 12)) return 'MDY';
  return undefined;
}

/** A comma when amounts end in ",dd" or group with dots before a comma; a dot likewise; undefined when none tells. */
function decimalSeparatorOf(amounts: string[]): CsvMapping['decimalSeparator'] {
  const ending = (mark: string) => new RegExp(`\\${mark}\\d{1,2}(\\s*[A-Z€$£]*)?[-)]?$`);
  if (amounts.some((amount) => ending(',').test(amount) || /\.\d{3},/.test(amount))) return ',';
  if (amounts.some((amount) => ending('.').test(amount) || /,\d{3}\./.test(amount))) return '.';
  return undefined;
}

/** The row's transaction; none for a balance or summary row (no date or no amount). */
function transactionOf(
  row: CsvRecord,
  mapping: CsvMapping,
  columns: MappedColumns,
  layout: CsvLayout,
  defaultCurrency: string,
): BankTransaction | undefined {
  const cell = (index: number | undefined) => (index === undefined ? '' : (row.cells[index] ?? ''));
  const [date, amount, debit, credit] = [columns.date, columns.amount, columns.debit, columns.credit].map(cell);
  if (date === '' || (amount === '' && debit === '' && credit === '')) return undefined;
  const fallback = mapping.defaultCurrency || defaultCurrency;
  const marker = cell(columns.currency);
  // A code, or a symbol as some banks write it ("€"; "$" is the default currency when it is a dollar).
  const currency = marker ? currencyOfMarker(marker, fallback).currency : fallback;
  if (!/^[A-Z]{3}$/.test(currency)) throw lineError(row.line, `the currency "${currency}" is not a currency code`);
  // Without a sign of its own, a file with ";" separators is European: decimal commas.
  const decimalSeparator = mapping.decimalSeparator ?? (layout.separator === ';' ? ',' : '.');
  const money = (text: string) => new Decimal(parseAmount(text, decimalSeparator, row.line));
  // Debits are money out whether the bank writes them with a minus or without.
  const net = () => (credit === '' ? new Decimal(0) : money(credit).abs()).minus(debit === '' ? 0 : money(debit).abs());
  return {
    date: dateOf(date, mapping.dateOrder, row.line),
    amount: amount !== '' ? parseAmount(amount, decimalSeparator, row.line) : net().toFixed(2),
    currency,
    payee: singleSpaced(cell(columns.payee)),
    description: singleSpaced(cell(columns.description)),
    line: row.line,
  };
}

/** YYYY-MM-DD of a written date in the order given (a four-digit first part is always the year). */
function dateOf(written: string, order: CsvMapping['dateOrder'], line: number): string {
  const parts = dateParts(written);
  let date: string | null = null;
  if (parts) {
    const [first, second, third] = parts;
    if (first.length === 4 || order === 'YMD') date = calendarDate(fullYear(first), Number(second), Number(third));
    else if (third.length !== 3) {
      const [day, month] = order === 'MDY' ? [second, first] : [first, second];
      date = calendarDate(fullYear(third), Number(month), Number(day));
    }
  }
  if (!date) throw lineError(line, `the date "${written}" is not a date`);
  return date;
}
