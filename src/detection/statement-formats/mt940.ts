import type { BankTransaction } from '../statement';
import { calendarDate, fullYear, lineError, parseAmount, singleSpaced } from './statement-values';

/**
 * Reads SWIFT MT940 statements as banks export them: `:61:` statement lines, each with the `:86:` information
 * after it, either structured in `?nn` subfields (German banks) or free text; the currency is the opening
 * balance's (`:60F:` or, on a continued statement, `:60M:`).
 */

/** A field: its tag, the line it starts on, and its lines (the first without the tag). */
interface Field {
  tag: string;
  line: number;
  lines: string[];
}

/** `:61:` value date, optional entry date (MMDD), mark (C, D, RC, RD), funds code, amount, transaction type. */
const STATEMENT_LINE = /^(\d{2})(\d{2})(\d{2})(\d{4})?(R?[CD])[A-Z]?(\d[\d,]*)([NFS][A-Z0-9]{3})/;
/** A line is 65 characters; German subfields are 27: text that fills one goes on in the next without a space. */
const LINE_WIDTH = 65;
const SUBFIELD_WIDTH = 27;
/** The SEPA keywords German banks put in the remittance subfields; the purpose is what follows SVWZ+. */
const SEPA_KEYWORD = /(EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/;

export function readMt940(text: string, defaultCurrency: string): BankTransaction[] {
  const transactions: BankTransaction[] = [];
  let currency = defaultCurrency;
  let previous: Field | undefined;
  for (const field of fieldsOf(text)) {
    if (field.tag === '60F' || field.tag === '60M') {
      currency = /^[CD]\d{6}([A-Z]{3})/.exec(field.lines[0])?.[1] ?? defaultCurrency;
    } else if (field.tag === '61') {
      transactions.push(statementLineOf(field, currency));
    } else if (field.tag === '86' && previous?.tag === '61') {
      Object.assign(transactions[transactions.length - 1], informationOf(field.lines));
    }
    previous = field;
  }
  return transactions;
}

/** The fields of the text; SWIFT envelope blocks (`{1:…}{4:`), message ends (`-`) and empty lines end a field. */
function fieldsOf(text: string): Field[] {
  const fields: Field[] = [];
  let current: Field | undefined;
  text.split(/\r\n|\r|\n/).forEach((written, index) => {
    const tagged = /^:(\d{2}[A-Z]?):(.*)$/.exec(written);
    if (tagged) {
      current = { tag: tagged[1], line: index + 1, lines: [tagged[2]] };
      fields.push(current);
    } else if (written.trim() === '' || /^-\}?\s*$/.test(written) || written.startsWith('{')) {
      current = undefined;
    } else {
      current?.lines.push(written);
    }
  });
  return fields;
}

function statementLineOf(field: Field, currency: string): BankTransaction {
  const parts = STATEMENT_LINE.exec(field.lines[0]);
  if (!parts) throw lineError(field.line, `the statement line ":61:${field.lines[0]}" is not readable`);
  const [, year, month, day, entryDate, mark, amount] = parts;
  const valueDate = calendarDate(fullYear(year), Number(month), Number(day));
  if (!valueDate) throw lineError(field.line, `the date "${year}${month}${day}" is not a date`);
  let date = valueDate;
  if (entryDate) {
    const [entryMonth, entryDay] = [Number(entryDate.slice(0, 2)), Number(entryDate.slice(2))];
    // The entry date has no year: it is the value date's, or next or last year's across the turn of a year.
    const turn = entryMonth - Number(month) > 6 ? -1 : Number(month) - entryMonth > 6 ? 1 : 0;
    const entry = calendarDate(fullYear(year) + turn, entryMonth, entryDay);
    if (!entry) throw lineError(field.line, `the entry date "${entryDate}" is not a date`);
    date = entry;
  }
  const magnitude = parseAmount(amount, ',', field.line);
  // D is money out, and so is the reversal of a credit (RC).
  const out = (mark === 'D' || mark === 'RC') && magnitude !== '0.00';
  return { date, amount: out ? `-${magnitude}` : magnitude, currency, payee: '', description: '', line: field.line };
}

/** The payee and description of `:86:` information. */
function informationOf(lines: string[]): { payee: string; description: string } {
  const joined = lines.join('');
  if (!/^\d{3}\?/.test(joined)) {
    return { payee: '', description: singleSpaced(joinWrapped(lines, LINE_WIDTH, LINE_WIDTH - ':86:'.length)) };
  }
  // Structured: a transaction code, then ?nn subfields (line breaks may fall anywhere and are not content).
  const subfields = [...joined.slice(3).matchAll(/\?(\d{2})([^?]*)/g)].map(([, code, value]) => ({ code, value }));
  const valuesOf = (codes: RegExp) => subfields.filter(({ code }) => codes.test(code)).map(({ value }) => value);
  const remittance = joinWrapped(valuesOf(/^(2\d|6[0-3])$/), SUBFIELD_WIDTH);
  return {
    payee: singleSpaced(joinWrapped(valuesOf(/^3[23]$/), SUBFIELD_WIDTH)),
    description: singleSpaced(sepaPurpose(remittance)),
  };
}

/** Pieces of a text wrapped at a width: a full piece goes on without a space, a shorter one ended a word. */
function joinWrapped(pieces: string[], width: number, firstWidth = width): string {
  return pieces.reduce((text, piece, index) => {
    if (index === 0) return piece;
    const full = pieces[index - 1].length >= (index === 1 ? firstWidth : width);
    return text + (full ? '' : ' ') + piece;
  }, '');
}

/** The purpose (SVWZ+) of SEPA remittance text ('' when only references are given), or the text without keywords. */
function sepaPurpose(remittance: string): string {
  const parts = remittance.split(SEPA_KEYWORD);
  if (parts.length === 1) return remittance;
  const purpose = parts.indexOf('SVWZ');
  return purpose === -1 ? '' : parts[purpose + 1];
}
