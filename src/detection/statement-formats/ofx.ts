import type { BankTransaction } from '../statement';
import { calendarDate, lineError, lineFinder, parseAmount, singleSpaced } from './statement-values';

/**
 * Reads OFX and QFX statements, 1.x (SGML: elements without closing tags) and 2.x (XML) alike. Each
 * transaction's elements are read from its `<STMTTRN>` aggregate as text: a value ends at the next tag or
 * line end in both forms, so neither form needs normalising into the other before reading.
 */
export function readOfx(text: string, defaultCurrency: string): BankTransaction[] {
  const lineAt = lineFinder(text);
  if (!/<\/OFX>/i.test(text)) throw lineError(lineAt(text.length), 'the file ends before </OFX>: it is cut short');
  const currencies = [...text.matchAll(/<CURDEF>([^<\r\n]*)/gi)].map((match) => ({
    offset: match.index,
    currency: match[1].trim().toUpperCase(),
  }));
  return [...text.matchAll(/<STMTTRN>/gi)].map((opening) => {
    const line = lineAt(opening.index);
    const start = opening.index + opening[0].length;
    // Searched from the opening on, not in a copy of the rest: a file may have thousands of transactions.
    const closing = /<\/STMTTRN>/gi;
    closing.lastIndex = start;
    const end = closing.exec(text)?.index;
    const aggregate = end === undefined ? '' : text.slice(start, end);
    if (end === undefined || /<STMTTRN>/i.test(aggregate)) {
      throw lineError(line, 'the transaction is not closed by </STMTTRN>');
    }
    // A statement's CURDEF comes before its transactions; a file may hold statements of several accounts.
    const currency = currencies.filter((entry) => entry.offset < opening.index).at(-1)?.currency || defaultCurrency;
    return transactionOf(aggregate, currency, line);
  });
}

function transactionOf(aggregate: string, currency: string, line: number): BankTransaction {
  const posted = elementText(aggregate, 'DTPOSTED');
  const parts = /^(\d{4})(\d{2})(\d{2})/.exec(posted);
  const date = parts && calendarDate(Number(parts[1]), Number(parts[2]), Number(parts[3]));
  if (!date) throw lineError(line, `the date "${posted}" is not a date`);
  const amount = elementText(aggregate, 'TRNAMT');
  // OFX writes a decimal point; some European banks write a comma.
  const decimalSeparator = /,\d{1,2}$/.test(amount) && !amount.includes('.') ? ',' : '.';
  return {
    date,
    amount: parseAmount(amount, decimalSeparator, line),
    currency,
    // NAME is the transaction's own or, within a PAYEE aggregate, the payee's: the first one is either.
    payee: singleSpaced(elementText(aggregate, 'NAME')),
    description: singleSpaced(elementText(aggregate, 'MEMO')),
    line,
  };
}

/** An element's text: up to the next tag (its closing tag in XML) or the line end (SGML); '' when absent. */
function elementText(aggregate: string, name: string): string {
  const value = new RegExp(`<${name}>([^<\\r\\n]*)`, 'i').exec(aggregate)?.[1] ?? '';
  return decodeEntities(value.trim());
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}
