import { AppError } from '../../platform/errors';
import type { BankTransaction } from '../statement';
import { calendarDate, lineError, lineFinder, parseAmount, singleSpaced } from './statement-values';

/** Reads ISO 20022 camt.053 bank-to-customer statements (any version: namespaces are left out when parsing). */

type XmlNode = Record<string, unknown>;

/** Elements that may repeat; read as lists even when a file has one of them. */
const REPEATED = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

/** The XML reader, made with the first statement read (most processes never read one). */
let xml: import('fast-xml-parser').XMLParser | undefined;
function xmlParser(): import('fast-xml-parser').XMLParser {
  if (!xml) {
    const { XMLParser } = require('fast-xml-parser') as typeof import('fast-xml-parser');
    xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      removeNSPrefix: true,
      // Amounts and names stay text: "12.90" must not become 12.9, nor "0012" 12.
      parseTagValue: false,
      parseAttributeValue: false,
      isArray: (name) => REPEATED.has(name),
    });
  }
  return xml;
}

export function readCamt053(text: string, defaultCurrency: string): BankTransaction[] {
  const lineAt = lineFinder(text);
  if (!/<\/(?:[\w.-]+:)?Document>\s*$/.test(text)) {
    throw lineError(lineAt(text.length), 'the file ends before </Document>: it is cut short');
  }
  const { XMLValidator } = require('fast-xml-parser') as typeof import('fast-xml-parser');
  const validation = XMLValidator.validate(text);
  if (validation !== true) throw lineError(validation.err.line, `the XML is not well-formed: ${validation.err.msg}`);
  const statements = node(node(xmlParser().parse(text) as XmlNode, 'Document'), 'BkToCstmrStmt');
  if (Object.keys(statements).length === 0)
    throw AppError.badInput('The file is not a camt.053 statement: it has no BkToCstmrStmt');
  // Entries are found in the text too, in the same order, for the line each starts on.
  const entryLines = [...text.matchAll(/<(?:[\w.-]+:)?Ntry[\s>]/g)].map((match) => lineAt(match.index));
  const entries = list(statements.Stmt).flatMap((statement) => list(statement.Ntry));
  return entries.flatMap((entry, index) => transactionsOf(entry, entryLines[index] ?? 0, defaultCurrency));
}

/**
 * An entry's transactions: one, or one per transaction detail when a batch booking details each with its
 * own amount.
 */
function transactionsOf(entry: XmlNode, line: number, defaultCurrency: string): BankTransaction[] {
  const details = list(entry.NtryDtls).flatMap((entryDetails) => list(entryDetails.TxDtls));
  const detailAmount = (detail: XmlNode) => (detail.Amt ?? node(node(detail, 'AmtDtls'), 'TxAmt').Amt) as unknown;
  if (details.length > 1 && details.every((detail) => detailAmount(detail) !== undefined)) {
    return details.map((detail) => transactionOf(entry, detail, detailAmount(detail), line, defaultCurrency));
  }
  return [transactionOf(entry, details[0] ?? {}, entry.Amt, line, defaultCurrency)];
}

function transactionOf(
  entry: XmlNode,
  detail: XmlNode,
  amount: unknown,
  line: number,
  defaultCurrency: string,
): BankTransaction {
  const booked = [node(entry, 'BookgDt'), node(entry, 'ValDt')].map((day) => textOf(day.Dt) || textOf(day.DtTm));
  const written = booked.find((day) => day !== '') ?? '';
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(written);
  const date = parts && calendarDate(Number(parts[1]), Number(parts[2]), Number(parts[3]));
  if (!date) throw lineError(line, `the date "${written}" is not a date`);
  const debit = (textOf(detail.CdtDbtInd) || textOf(entry.CdtDbtInd)) === 'DBIT';
  const magnitude = parseAmount(textOf(amount), '.', line).replace(/^-/, '');
  // The counterparty is the creditor of a debit and the debtor of a credit (from version 8 within a Pty).
  const party = node(node(detail, 'RltdPties'), debit ? 'Cdtr' : 'Dbtr');
  const remittance = list<unknown>(node(detail, 'RmtInf').Ustrd).map(textOf);
  return {
    date,
    amount: debit && magnitude !== '0.00' ? `-${magnitude}` : magnitude,
    currency: textOf((amount as XmlNode | undefined)?.['@Ccy']).toUpperCase() || defaultCurrency,
    payee: singleSpaced(textOf(party.Nm) || textOf(node(party, 'Pty').Nm)),
    description: singleSpaced(remittance.join(' ') || textOf(detail.AddtlTxInf) || textOf(entry.AddtlNtryInf)),
    line,
  };
}

/** A child element ({} when absent, so paths read on). */
function node(parent: XmlNode, name: string): XmlNode {
  const child = parent[name];
  return typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as XmlNode) : {};
}

function list<Item = XmlNode>(value: unknown): Item[] {
  return Array.isArray(value) ? (value as Item[]) : [];
}

/** An element's text, with or without attributes. */
function textOf(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
  if (typeof value === 'object' && value !== null && '#text' in value) return textOf((value as XmlNode)['#text']);
  return '';
}
