import { AppError } from '../../platform/errors';
import type { BankTransaction } from '../statement';
import { calendarDate, lineError, lineFinder, parseAmount, singleSpaced } from './statement-values';

/** Reads ISO 20022 camt.053 bank-to-customer statements (any version: namespaces are left out when parsing). */

type XmlNode = Record<string, unknown>;

/** Elements that may repeat; read as lists even when a file has one of them. */
const REPEATED = new Set(['Stmt', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd']);

/**
 * The statement as a tree of its elements by local name (namespace prefixes left out): an element with only
 * text is its text; otherwise an object of its children (a REPEATED one, or any that repeats, as a list), its
 * attributes as "@name" and its text as "#text". saxes reads it in one strict pass (a tenth of the time a
 * validating DOM parser took on a 10,000-entry statement) and says on which line it is not well-formed.
 */
function parseXml(text: string): XmlNode {
  const { SaxesParser } = require('saxes') as typeof import('saxes');
  const parser = new SaxesParser();
  const root: XmlNode = {};
  const open: Array<{ name: string; node: XmlNode; text: string; hasChildren: boolean }> = [
    { name: '', node: root, text: '', hasChildren: false },
  ];
  parser.on('opentag', (tag) => {
    const node: XmlNode = {};
    for (const [name, value] of Object.entries(tag.attributes)) node[`@${localName(name)}`] = value;
    open[open.length - 1].hasChildren = true;
    open.push({ name: localName(tag.name), node, text: '', hasChildren: false });
  });
  parser.on('text', (chunk) => (open[open.length - 1].text += chunk));
  parser.on('cdata', (chunk) => (open[open.length - 1].text += chunk));
  parser.on('closetag', () => {
    const { name, node, text, hasChildren } = open.pop()!;
    const value: unknown = hasChildren || Object.keys(node).length > 0 ? node : text;
    if (value === node && text.trim() !== '') node['#text'] = text;
    const parent = open[open.length - 1].node;
    const kept = parent[name];
    if (kept === undefined) parent[name] = REPEATED.has(name) ? [value] : value;
    else if (Array.isArray(kept)) kept.push(value);
    else parent[name] = [kept, value];
  });
  try {
    parser.write(text).close();
  } catch (error) {
    const message = (error as Error).message.replace(/^(?:[^:\d][^:]*:)?\d+:\d+: /, '');
    throw lineError(parser.line, `the XML is not well-formed: ${message}`);
  }
  return root;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

export function readCamt053(text: string, defaultCurrency: string): BankTransaction[] {
  const lineAt = lineFinder(text);
  if (!/<\/(?:[\w.-]+:)?Document>\s*$/.test(text)) {
    throw lineError(lineAt(text.length), 'the file ends before </Document>: it is cut short');
  }
  const statements = node(node(parseXml(text), 'Document'), 'BkToCstmrStmt');
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
