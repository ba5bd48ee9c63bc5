import { stringify } from 'csv-stringify/sync';
import Decimal from 'decimal.js';

import type { BankTransaction, StatementFormat } from '../../src/detection/statement';

/**
 * Bank statements as banks export them, written from transactions, for the statement readers' tests: each
 * format with the headers, preambles, balances and encodings of real exports around the transactions.
 */

/** A transaction to write: what a reader answers, without the line it finds it on. */
export type WrittenTransaction = Omit<BankTransaction, 'line'>;

/**
 * The CSV layouts: a German bank (Latin-1, a preamble), an English one, a US one (debit and credit columns,
 * month first), a French one (UTF-8 with a BOM, no currency column) and one whose header no bank uses.
 */
export type CsvStyle = 'german' | 'english' | 'us' | 'french' | 'unknown';

export function writeStatement(
  transactions: WrittenTransaction[],
  format: StatementFormat,
  style: CsvStyle = 'english',
): Buffer {
  switch (format) {
    case 'csv':
      return writeCsv(transactions, style);
    case 'ofx':
      return writeOfx(transactions);
    case 'camt053':
      return writeCamt053(transactions);
    case 'mt940':
      return writeMt940(transactions);
  }
}

/** An amount's magnitude with the decimal mark and thousands grouping given: "1.234,56". */
function magnitude(amount: string, decimal: ',' | '.', group = ''): string {
  const [whole, fraction] = new Decimal(amount).abs().toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${decimal}${fraction}`;
}

const isDebit = (amount: string) => amount.startsWith('-');

/** A YYYY-MM-DD date's parts rearranged: `dated('2026-01-31', 'D.M.Y')` is "31.01.2026". */
function dated(date: string, pattern: string): string {
  const [year, month, day] = date.split('-');
  return pattern.replace('Y', year).replace('y', year.slice(2)).replace('M', month).replace('D', day);
}

const balance = (transactions: WrittenTransaction[], opening: string) =>
  transactions.reduce((sum, { amount }) => sum.plus(amount), new Decimal(opening)).toFixed(2);

interface CsvLayoutStyle {
  separator: string;
  encoding: 'latin1' | 'utf-8';
  bom?: boolean;
  quoted?: boolean;
  preamble?: (transactions: WrittenTransaction[]) => string[][];
  header: string[];
  row: (transaction: WrittenTransaction) => string[];
  trailer?: (transactions: WrittenTransaction[]) => string[][];
}

const CSV_STYLES: Record<CsvStyle, CsvLayoutStyle> = {
  german: {
    separator: ';',
    encoding: 'latin1',
    quoted: true,
    // Five lines above the header, which is on line 6 (the blank line is the fifth).
    preamble: (transactions) => [
      ['Kontonummer:', 'DE89 3704 0044 0532 0130 00'],
      ['Kontoinhaber:', 'Jörg Müller'],
      ['Zeitraum:', `${dated(transactions[0].date, 'D.M.Y')} - ${dated(transactions.at(-1)!.date, 'D.M.Y')}`],
      ['Kontostand:', `${magnitude(balance(transactions, '2500'), ',', '.')} EUR`],
      [],
    ],
    header: ['Buchungstag', 'Empfänger', 'Verwendungszweck', 'Betrag', 'Währung'],
    row: ({ date, payee, description, amount, currency }) => [
      dated(date, 'D.M.Y'),
      payee,
      description,
      `${isDebit(amount) ? '-' : ''}${magnitude(amount, ',', '.')}`,
      currency,
    ],
    // A balance line: a date and a label, but no amount.
    trailer: (transactions) => [[dated(transactions.at(-1)!.date, 'D.M.Y'), 'Abschlusssaldo', '', '', '']],
  },
  english: {
    separator: ',',
    encoding: 'utf-8',
    header: ['Date', 'Description', 'Amount', 'Currency'],
    row: ({ date, payee, description, amount, currency }) => [
      date,
      bookingText(payee, description),
      new Decimal(amount).toFixed(2),
      currency,
    ],
  },
  us: {
    separator: ',',
    encoding: 'utf-8',
    header: ['Transaction Date', 'Payee', 'Memo', 'Debit', 'Credit'],
    row: ({ date, payee, description, amount }) => [
      dated(date, 'M/D/Y'),
      payee,
      description,
      isDebit(amount) ? magnitude(amount, '.', ',') : '',
      isDebit(amount) ? '' : magnitude(amount, '.', ','),
    ],
  },
  french: {
    separator: ';',
    encoding: 'utf-8',
    bom: true,
    header: ['Date opération', 'Libellé', 'Débit', 'Crédit'],
    // Debits with their minus, as some French banks write them; thousands grouped with a space.
    row: ({ date, payee, description, amount }) => [
      dated(date, 'D/M/Y'),
      bookingText(payee, description),
      isDebit(amount) ? `-${magnitude(amount, ',', ' ')}` : '',
      isDebit(amount) ? '' : magnitude(amount, ',', ' '),
    ],
  },
  unknown: {
    separator: ';',
    encoding: 'utf-8',
    header: ['Col A', 'Col B', 'Col C'],
    row: ({ date, payee, description, amount }) => [
      dated(date, 'D.M.Y'),
      bookingText(payee, description),
      `${isDebit(amount) ? '-' : ''}${magnitude(amount, ',')}`,
    ],
  },
};

/** A layout with one text column holds what names the merchant: the payee, or the booking text when there is none. */
export function bookingText(payee: string, description: string): string {
  return payee || description;
}

function writeCsv(transactions: WrittenTransaction[], style: CsvStyle): Buffer {
  const layout = CSV_STYLES[style];
  const rows = [
    ...(layout.preamble?.(transactions) ?? []),
    layout.header,
    ...transactions.map(layout.row),
    ...(layout.trailer?.(transactions) ?? []),
  ];
  const text = rows
    .map((row) =>
      row.length === 0
        ? ''
        : stringify([row], { delimiter: layout.separator, quoted: layout.quoted, record_delimiter: '' }),
    )
    .join('\r\n');
  return Buffer.from(`${layout.bom ? '\ufeff' : ''}${text}\r\n`, layout.encoding);
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** OFX 1.0.2 in SGML, as US banks' "Web Connect" downloads are: Windows-1252, elements left unclosed. */
function writeOfx(transactions: WrittenTransaction[]): Buffer {
  const stamp = (date: string) => `${date.replaceAll('-', '')}120000[0:GMT]`;
  const header = ['OFXHEADER:100', 'DATA:OFXSGML', 'VERSION:102', 'SECURITY:NONE', 'ENCODING:USASCII', 'CHARSET:1252'];
  const body = [
    '<OFX>',
    '<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS>',
    `<DTSERVER>${stamp(transactions.at(-1)!.date)}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>`,
    '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1001<STATUS><CODE>0<SEVERITY>INFO</STATUS>',
    `<STMTRS><CURDEF>${transactions[0].currency}`,
    '<BANKACCTFROM><BANKID>121000248<ACCTID>4417849372<ACCTTYPE>CHECKING</BANKACCTFROM>',
    `<BANKTRANLIST><DTSTART>${stamp(transactions[0].date)}<DTEND>${stamp(transactions.at(-1)!.date)}`,
    ...transactions.flatMap(({ date, amount, payee, description }, index) => [
      '<STMTTRN>',
      `<TRNTYPE>${isDebit(amount) ? 'DEBIT' : 'CREDIT'}`,
      `<DTPOSTED>${stamp(date)}`,
      `<TRNAMT>${new Decimal(amount).toFixed(2)}`,
      `<FITID>2026${String(index + 1).padStart(8, '0')}`,
      `<NAME>${escapeMarkup(payee)}`,
      `<MEMO>${escapeMarkup(description)}`,
      '</STMTTRN>',
    ]),
    '</BANKTRANLIST>',
    `<LEDGERBAL><BALAMT>${balance(transactions, '2500')}<DTASOF>${stamp(transactions.at(-1)!.date)}</LEDGERBAL>`,
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
    '</OFX>',
  ];
  return Buffer.from(
    `${header.join('\r\n')}\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n${body.join('\r\n')}\r\n`,
    'latin1',
  );
}

/** camt.053.001.02 as European banks send it: opening and closing balances around booked entries. */
function writeCamt053(transactions: WrittenTransaction[]): Buffer {
  const currency = transactions[0].currency;
  const closing = balance(transactions, '2500');
  const balanceOf = (code: string, amount: string, date: string) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${magnitude(amount, '.')}</Amt>` +
    `<CdtDbtInd>${isDebit(amount) ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  const entries = transactions.map(({ date, amount, currency: entryCurrency, payee, description }, index) => {
    const debit = isDebit(amount);
    const party = debit ? 'Cdtr' : 'Dbtr';
    return [
      '<Ntry>',
      `  <NtryRef>${index + 1}</NtryRef>`,
      `  <Amt Ccy="${entryCurrency}">${magnitude(amount, '.')}</Amt>`,
      `  <CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd>`,
      '  <Sts>BOOK</Sts>',
      `  <BookgDt><Dt>${date}</Dt></BookgDt>`,
      `  <ValDt><Dt>${date}</Dt></ValDt>`,
      `  <AcctSvcrRef>2026${String(index + 1).padStart(10, '0')}</AcctSvcrRef>`,
      '  <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>',
      '  <NtryDtls><TxDtls>',
      '    <Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs>',
      `    <RltdPties><${party}><Nm>${escapeMarkup(payee)}</Nm></${party}></RltdPties>`,
      `    <RmtInf><Ustrd>${escapeMarkup(description)}</Ustrd></RmtInf>`,
      '  </TxDtls></NtryDtls>',
      '</Ntry>',
    ].join('\n');
  });
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '<BkToCstmrStmt>',
    '<GrpHdr><MsgId>STMT-2026-0001</MsgId><CreDtTm>2026-04-01T06:00:00</CreDtTm></GrpHdr>',
    `<Stmt><Id>STMT-2026-0001-1</Id><ElctrncSeqNb>1</ElctrncSeqNb><CreDtTm>2026-04-01T06:00:00</CreDtTm>`,
    `<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>${currency}</Ccy></Acct>`,
    balanceOf('OPBD', '2500', transactions[0].date),
    balanceOf('CLBD', closing, transactions.at(-1)!.date),
    ...entries,
    '</Stmt>',
    '</BkToCstmrStmt>',
    '</Document>',
  ];
  return Buffer.from(`${xml.join('\n')}\n`, 'utf-8');
}

/** Pieces of at most `width` characters. */
function chunks(text: string, width: number): string[] {
  return text.match(new RegExp(`[\\s\\S]{1,${width}}`, 'g')) ?? [];
}

/**
 * MT940 as German banks export it (Latin-1): `:86:` in ?nn subfields, SEPA keywords in the remittance
 * (?20 onwards), the payee in ?32 and ?33, 27 characters each.
 */
function writeMt940(transactions: WrittenTransaction[]): Buffer {
  const currency = transactions[0].currency;
  const swiftBalance = (tag: string, amount: string, date: string) =>
    `:${tag}:${isDebit(amount) ? 'D' : 'C'}${dated(date, 'yMD')}${currency}${magnitude(amount, ',')}`;
  const lines = [
    ':20:STARTUMS',
    ':25:37040044/0532013000',
    ':28C:00001/001',
    swiftBalance('60F', '2500', transactions[0].date),
    ...transactions.flatMap(({ date, amount, payee, description }) => {
      const remittance = chunks(`SVWZ+${description}`, 27).map((chunk, index) => `?${21 + index}${chunk}`);
      const name = chunks(payee, 27).map((chunk, index) => `?${32 + index}${chunk}`);
      return [
        `:61:${dated(date, 'yMD')}${dated(date, 'MD')}${isDebit(amount) ? 'D' : 'C'}${magnitude(amount, ',')}NDDTNONREF`,
        `:86:${isDebit(amount) ? '105?00SEPA-BASISLASTSCHRIFT' : '166?00SEPA-GUTSCHRIFT'}?100599`,
        '?20EREF+NOTPROVIDED',
        ...remittance,
        '?30COBADEFFXXX?31DE02120300000000202051',
        ...name,
        '?34992',
      ];
    }),
    swiftBalance('62F', balance(transactions, '2500'), transactions.at(-1)!.date),
    '-',
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1');
}
