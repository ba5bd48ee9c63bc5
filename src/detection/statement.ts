/**
 * A bank statement as every reader answers it, and what detection finds in it: the contract between the
 * statement readers (`statement-formats/`), the detector (`detect.ts`) and the detection service.
 */

/** The formats a statement is read from; a format left out is recognised from the file's content. */
export type StatementFormat = 'csv' | 'ofx' | 'camt053' | 'mt940';

/** One booked transaction of a statement. */
export interface BankTransaction {
  /** The booking date, YYYY-MM-DD. */
  date: string;
  /** A decimal string with a dot, negative for money going out (a debit), e.g. "-12.99". */
  amount: string;
  /** ISO 4217 code, upper case. */
  currency: string;
  /** The counterparty as the bank wrote it (card text, creditor name, payee); '' when the file has none. */
  payee: string;
  /** The rest of the booking text (remittance information, memo); '' when none. */
  description: string;
  /** Where it stands in the file (1-based line, or record for XML), for messages. */
  line: number;
}

/** Which CSV column holds which field: a header's text, or for a file without a header a column number from 1. */
export interface CsvMapping {
  date: string;
  payee: string;
  description?: string;
  /** One signed amount column, or debit and credit columns (either may be used alone). */
  amount?: string;
  debit?: string;
  credit?: string;
  currency?: string;
  /** How dates are written when they are not ISO: day first (31.01.2026, 31/01/2026) or month first. */
  dateOrder?: 'DMY' | 'MDY' | 'YMD';
  decimalSeparator?: ',' | '.';
  /** The statement's currency when no column holds one. */
  defaultCurrency?: string;
}

/** A CSV file's shape, recognised before any mapping: what a mapping is remembered by. */
export interface CsvLayout {
  separator: ',' | ';' | '\t';
  encoding: 'utf-8' | 'latin1';
  /** The header row's cells (trimmed) and its line (1-based); empty, 0 without a header. */
  header: string[];
  headerLine: number;
  /** A stable key of the layout (the separator and the header cells, lower-cased): mappings are kept by it. */
  key: string;
}

/** What reading a statement answers: its transactions, or (a CSV whose columns were not recognised) the layout to map. */
export type StatementReading =
  | { kind: 'read'; transactions: BankTransaction[]; csv?: { layout: CsvLayout; mapping: CsvMapping } }
  | { kind: 'needsMapping'; layout: CsvLayout; sample: string[][] };

/** A record's billing period: its cycle (the record's codes: 1 daily, 2 weekly, 3 monthly, 4 yearly) and frequency. */
export interface BillingPeriod {
  cycle: 2 | 3 | 4;
  frequency: number;
}

/** A recurring payment found in a statement. */
export interface DetectedSeries {
  /** Stable across statements of the same payments: the normalised payee, the currency and the period. */
  key: string;
  /** The normalised payee, for people (capitalised words, no card numbers or processor prefixes). */
  payee: string;
  currency: string;
  period: BillingPeriod;
  /** The latest amount, positive, two decimals. */
  price: string;
  /** The price from each date on (the first payment's price first); one step when it never changed. */
  priceSteps: Array<{ effectiveFrom: string; price: string }>;
  /** The payments found, oldest first (amounts positive). */
  payments: Array<{ date: string; amount: string }>;
  /** The next payment the period puts after the last one found. */
  nextDate: string;
  /** False when the payments stopped: the last is more than a period and its tolerance before the statement's end. */
  ongoing: boolean;
  /** 0 to 1. */
  confidence: number;
  /** Why, for people: "12 payments, monthly on the 3rd ± 2 days, same amount". */
  reasons: string[];
}
