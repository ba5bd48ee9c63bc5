import type { CsvMapping, StatementFormat, StatementReading } from '../statement';
import { readCamt053 } from './camt053';
import { readCsv } from './csv';
import { readMt940 } from './mt940';
import { readOfx } from './ofx';
import { decodeStatement } from './statement-values';

export interface StatementReadOptions {
  /** Left out, the format is recognised from the content. */
  format?: StatementFormat;
  /** The columns of a CSV file, as its reader chose them (it overrides a remembered or recognised mapping). */
  mapping?: CsvMapping;
  /** A mapping remembered for a CSV layout, by the layout's key. */
  knownMappings?: (layoutKey: string) => CsvMapping | undefined;
  /** The currency of transactions a file gives none for. */
  defaultCurrency: string;
}

/**
 * Reads a bank statement's transactions, in the order the file has them. A file that cannot be read is
 * refused whole (AppError BAD_USER_INPUT naming the line), never read in part.
 */
export function readStatement(bytes: Buffer, options: StatementReadOptions): StatementReading {
  const { text, encoding } = decodeStatement(bytes);
  const format = options.format ?? recogniseFormat(text);
  switch (format) {
    case 'ofx':
      return { kind: 'read', transactions: readOfx(text, options.defaultCurrency) };
    case 'camt053':
      return { kind: 'read', transactions: readCamt053(text, options.defaultCurrency) };
    case 'mt940':
      return { kind: 'read', transactions: readMt940(text, options.defaultCurrency) };
    case 'csv':
      return readCsv(text, encoding, options);
  }
}

/** The statement format of a file's text: the XML and SWIFT formats by their marks, anything else CSV. */
export function recogniseFormat(text: string): StatementFormat {
  const start = text.trimStart();
  if (/^OFXHEADER:/i.test(start) || (start.startsWith('<') && /<OFX>/i.test(start.slice(0, 4096)))) return 'ofx';
  if (start.startsWith('<') && /camt\.053|BkToCstmrStmt/.test(start.slice(0, 4096))) return 'camt053';
  if (/^:20:/m.test(text) && /^:25:/m.test(text) && /^:60[FM]:/m.test(text)) return 'mt940';
  return 'csv';
}
