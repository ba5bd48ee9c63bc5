import type { CsvMapping, StatementFormat, StatementReading } from '../../src/detection/statement';
import { readStatement, recogniseFormat } from '../../src/detection/statement-formats/read-statement';
import { AppError } from '../../src/platform/errors';
import { bookingText, type CsvStyle, writeStatement, type WrittenTransaction } from '../support/statement-writers';

/** Outgoing and incoming, cents and thousands, the month's last days, accents and card-number noise. */
const TRANSACTIONS: WrittenTransaction[] = [
  { date: '2026-01-29', amount: '-12.99', currency: 'CHF', payee: 'NETFLIX.COM', description: 'Abo Januar 2026' },
  {
    date: '2026-01-30',
    amount: '1234.56',
    currency: 'CHF',
    payee: 'Müller & Söhne GmbH',
    description: 'Gehalt Januar, Überstunden',
  },
  {
    date: '2026-01-31',
    amount: '-0.99',
    currency: 'CHF',
    payee: 'VISA 4871 **** 1234 APPLE.COM/BILL  CORK',
    description: 'Kartenzahlung iCloud 50 GB',
  },
  {
    date: '2026-02-28',
    amount: '-1234.56',
    currency: 'CHF',
    payee: 'Crédit Agricole Île-de-France',
    description: 'Prêt échéance n° 12',
  },
  { date: '2026-03-31', amount: '0.99', currency: 'CHF', payee: 'Café Señor Ñandú', description: 'Remboursement' },
];

/** Files give other currencies than this one: a transaction read in it had none in its file. */
const DEFAULT_CURRENCY = 'EUR';

function read(bytes: Buffer, options: Partial<Parameters<typeof readStatement>[1]> = {}): StatementReading {
  return readStatement(bytes, { defaultCurrency: DEFAULT_CURRENCY, ...options });
}

/** The transactions of a reading that read, without their lines. */
function transactionsOf(reading: StatementReading): WrittenTransaction[] {
  if (reading.kind !== 'read') throw new Error(`not read: ${JSON.stringify(reading)}`);
  return reading.transactions.map(({ line: _line, ...transaction }) => transaction);
}

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('the file was read');
}

describe('statement readers', () => {
  describe.each<StatementFormat>(['ofx', 'camt053', 'mt940'])('%s', (format) => {
    it('reads back what was written, recognising the format', () => {
      const bytes = writeStatement(TRANSACTIONS, format);
      expect(recogniseFormat(bytes.toString('latin1'))).toBe(format);
      expect(transactionsOf(read(bytes))).toEqual(TRANSACTIONS);
      expect(read(bytes, { format })).toEqual(read(bytes));
    });
  });

  /**
   * What each CSV layout carries: one text column holds the payee (or, without one, the booking text), and no
   * currency column means the default currency.
   */
  const oneText = (transaction: WrittenTransaction) => ({
    ...transaction,
    payee: bookingText(transaction.payee, transaction.description),
    description: '',
  });
  const carried: Record<CsvStyle, (transaction: WrittenTransaction) => WrittenTransaction> = {
    german: (transaction) => transaction,
    english: oneText,
    us: (transaction) => ({ ...transaction, currency: DEFAULT_CURRENCY }),
    french: (transaction) => ({ ...oneText(transaction), currency: DEFAULT_CURRENCY }),
    unknown: (transaction) => ({ ...oneText(transaction), currency: DEFAULT_CURRENCY }),
  };

  it.each<CsvStyle>(['german', 'english', 'us', 'french'])('reads back the %s CSV layout', (style) => {
    const bytes = writeStatement(TRANSACTIONS, 'csv', style);
    expect(recogniseFormat(bytes.toString('latin1'))).toBe('csv');
    expect(transactionsOf(read(bytes))).toEqual(TRANSACTIONS.map(carried[style]));
  });

  it('reads a German export: Latin-1, a preamble of five lines, day first, decimal commas', () => {
    const bytes = writeStatement(TRANSACTIONS, 'csv', 'german');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const reading = read(bytes);
    expect(reading.kind === 'read' && reading.csv).toEqual({
      layout: {
        separator: ';',
        encoding: 'latin1',
        header: ['Buchungstag', 'Empfänger', 'Verwendungszweck', 'Betrag', 'Währung'],
        headerLine: 6,
        key: ';|buchungstag|empfänger|verwendungszweck|betrag|währung',
      },
      mapping: {
        date: 'Buchungstag',
        payee: 'Empfänger',
        description: 'Verwendungszweck',
        amount: 'Betrag',
        currency: 'Währung',
        dateOrder: 'DMY',
        decimalSeparator: ',',
      },
    });
    expect(reading.kind === 'read' && reading.transactions.map(({ line }) => line)).toEqual([7, 8, 9, 10, 11]);
  });

  it('reads a UTF-8 file with a byte order mark, debit and credit columns, no currency column', () => {
    const bytes = writeStatement(TRANSACTIONS, 'csv', 'french');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const reading = read(bytes);
    expect(reading.kind === 'read' && reading.csv?.layout).toMatchObject({
      encoding: 'utf-8',
      header: ['Date opération', 'Libellé', 'Débit', 'Crédit'],
      headerLine: 1,
    });
    expect(reading.kind === 'read' && reading.csv?.mapping).toMatchObject({ debit: 'Débit', credit: 'Crédit' });
  });

  it('reads a currency column of codes or symbols, a dollar as the default currency when it is one', () => {
    const csv = (currency: string) =>
      Buffer.from(`Date,Description,Amount,Currency\n2026-01-05,SHOP,-1.00,${currency}\n`, 'utf-8');
    const currencyOf = (currency: string, defaultCurrency = DEFAULT_CURRENCY) =>
      transactionsOf(read(csv(currency), { defaultCurrency }))[0].currency;
    expect([currencyOf('€'), currencyOf('£'), currencyOf('chf'), currencyOf('$'), currencyOf('$', 'CAD')]).toEqual([
      'EUR',
      'GBP',
      'CHF',
      'USD',
      'CAD',
    ]);
    expect(refusal(() => read(csv('¤'))).message).toBe('line 2: the currency "¤" is not a currency code');
  });

  it('tells month-first dates by a part over 12, and takes day first when nothing tells', () => {
    const us = read(writeStatement(TRANSACTIONS, 'csv', 'us'));
    expect(us.kind === 'read' && us.csv?.mapping.dateOrder).toBe('MDY');
    const early = [{ ...TRANSACTIONS[0], date: '2026-02-01' }];
    const ambiguous = writeStatement(early, 'csv', 'us');
    expect(transactionsOf(read(ambiguous))[0].date).toBe('2026-01-02');
    const reading = read(ambiguous);
    expect(reading.kind === 'read' && reading.csv?.mapping.dateOrder).toBeUndefined();
    const given = { date: 'Transaction Date', payee: 'Payee', debit: 'Debit', credit: 'Credit', dateOrder: 'MDY' };
    expect(transactionsOf(read(ambiguous, { mapping: given as CsvMapping }))[0].date).toBe('2026-02-01');
  });

  describe('a header that is not recognised', () => {
    const unknown = writeStatement([...TRANSACTIONS, TRANSACTIONS[0]], 'csv', 'unknown');
    const mapping: CsvMapping = { date: 'Col A', payee: 'Col B', amount: 'Col C' };

    it('answers the layout and the first rows to map', () => {
      expect(read(unknown)).toEqual({
        kind: 'needsMapping',
        layout: {
          separator: ';',
          encoding: 'utf-8',
          header: ['Col A', 'Col B', 'Col C'],
          headerLine: 1,
          key: ';|col a|col b|col c',
        },
        sample: [
          ['29.01.2026', 'NETFLIX.COM', '-12,99'],
          ['30.01.2026', 'Müller & Söhne GmbH', '1234,56'],
          ['31.01.2026', 'VISA 4871 **** 1234 APPLE.COM/BILL  CORK', '-0,99'],
          ['28.02.2026', 'Crédit Agricole Île-de-France', '-1234,56'],
          ['31.03.2026', 'Café Señor Ñandú', '0,99'],
        ],
      });
    });

    it('reads with a mapping given', () => {
      const reading = read(unknown, { mapping });
      expect(transactionsOf(reading)).toEqual([...TRANSACTIONS, TRANSACTIONS[0]].map(carried.unknown));
      expect(reading.kind === 'read' && reading.csv?.mapping).toEqual({
        ...mapping,
        dateOrder: 'DMY',
        decimalSeparator: ',',
      });
    });

    it('reads with the mapping remembered for its layout', () => {
      const knownMappings = jest.fn((key: string) => (key === ';|col a|col b|col c' ? mapping : undefined));
      expect(transactionsOf(read(unknown, { knownMappings }))).toHaveLength(6);
      expect(knownMappings).toHaveBeenCalledWith(';|col a|col b|col c');
      expect(read(unknown, { knownMappings: () => undefined }).kind).toBe('needsMapping');
    });

    it('reads a file without a header by column numbers', () => {
      const headless = Buffer.from(unknown.toString('utf-8').split('\r\n').slice(1).join('\r\n'));
      const reading = read(headless);
      expect(reading).toMatchObject({ kind: 'needsMapping', layout: { header: [], headerLine: 0, key: ';|3' } });
      const byNumber = read(headless, { mapping: { date: '1', payee: '2', amount: '3' } });
      expect(transactionsOf(byNumber)[1]).toEqual(carried.unknown(TRANSACTIONS[1]));
      expect(refusal(() => read(headless, { mapping: { date: '1', payee: '2', amount: '4' } })).message).toBe(
        'The file has no column "4"',
      );
    });
  });

  it('reads OFX 2 (XML) with a payee aggregate and a decimal comma', () => {
    const ofx = `<?xml version="1.0" encoding="UTF-8"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP</CURDEF><BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260130</DTPOSTED><TRNAMT>-9,99</TRNAMT><FITID>1</FITID>
<PAYEE><NAME>Disney+ &amp; Hulu</NAME><ADDR1>1 Main St</ADDR1></PAYEE><MEMO>Monthly</MEMO></STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`;
    expect(recogniseFormat(ofx)).toBe('ofx');
    expect(read(Buffer.from(ofx))).toEqual({
      kind: 'read',
      transactions: [
        {
          date: '2026-01-30',
          amount: '-9.99',
          currency: 'GBP',
          payee: 'Disney+ & Hulu',
          description: 'Monthly',
          line: 4,
        },
      ],
    });
  });

  it('reads MT940 entry dates across the turn of a year, reversals and free-text information', () => {
    // A free-text line filled to its 65 characters goes on in the next without a space; a shorter one ended a word.
    const purpose = 'Abonnement januari 2026 kenmerk 0012345678901234567890123456789 Netflix International';
    const mt940 = [
      ':20:STMT260102',
      ':25:NL91ABNA0417164300',
      ':28C:1/1',
      ':60F:C251231EUR100,00',
      ':61:2512310102D12,99NDDTNONREF',
      `:86:${purpose.slice(0, 61)}`,
      purpose.slice(61),
      ':61:2601020102RC5,NDDTNONREF',
      ':86:Terugboeking',
      'incasso',
      ':62F:C260102EUR82,01',
      '-',
    ].join('\n');
    expect(recogniseFormat(mt940)).toBe('mt940');
    expect(read(Buffer.from(mt940))).toEqual({
      kind: 'read',
      transactions: [
        { date: '2026-01-02', amount: '-12.99', currency: 'EUR', payee: '', description: purpose, line: 5 },
        {
          date: '2026-01-02',
          amount: '-5.00',
          currency: 'EUR',
          payee: '',
          description: 'Terugboeking incasso',
          line: 8,
        },
      ],
    });
  });

  describe('refuses a file whole, naming the line', () => {
    const csv = (text: string) => Buffer.from(text.replaceAll('\n', '\r\n'), 'latin1');

    it('for an amount that is not a number', () => {
      const bytes = csv('Buchungstag;Empfänger;Betrag\n31.01.2026;Netflix;-12,99\n\n30.01.2026;Spotify;12,3,4\n');
      expect(refusal(() => read(bytes))).toMatchObject({
        code: 'BAD_USER_INPUT',
        message: 'line 4: the amount "12,3,4" is not a number',
      });
    });

    it('for a date that is not a date', () => {
      const bytes = csv('Date,Description,Amount\n2026-01-31,Netflix,-12.99\n2026-02-30,Spotify,-9.99\n');
      expect(refusal(() => read(bytes)).message).toBe('line 3: the date "2026-02-30" is not a date');
    });

    it('for a cut-short or malformed XML file', () => {
      const camt = writeStatement(TRANSACTIONS, 'camt053').toString('utf-8');
      const cut = camt.slice(0, camt.indexOf('<Ntry>', camt.indexOf('<Ntry>') + 1) + 40);
      expect(refusal(() => read(Buffer.from(cut))).message).toBe(
        `line ${cut.split('\n').length}: the file ends before </Document>: it is cut short`,
      );
      const lines = camt.split('\n');
      const broken = lines.findIndex((line) => line.includes('<Nm>'));
      lines[broken] = lines[broken].replace('</Nm>', '</Name>');
      expect(refusal(() => read(Buffer.from(lines.join('\n')))).message).toMatch(
        new RegExp(`^line ${broken + 1}: the XML is not well-formed: unexpected close tag`),
      );
      const ofx = writeStatement(TRANSACTIONS, 'ofx').toString('latin1');
      expect(refusal(() => read(Buffer.from(ofx.slice(0, ofx.indexOf('</BANKTRANLIST>'))))).message).toMatch(
        /^line \d+: the file ends before <\/OFX>: it is cut short$/,
      );
    });

    it('for an OFX transaction posted on no date', () => {
      const ofx = writeStatement(TRANSACTIONS, 'ofx')
        .toString('latin1')
        .replace('<DTPOSTED>20260131', '<DTPOSTED>20260132');
      // The transaction's line is its <STMTTRN>, two lines above the date (and lines count from 1).
      const line = ofx.split('\r\n').findIndex((text) => text.startsWith('<DTPOSTED>20260132')) - 1;
      expect(refusal(() => read(Buffer.from(ofx, 'latin1'))).message).toBe(
        `line ${line}: the date "20260132120000[0:GMT]" is not a date`,
      );
    });

    it('for an MT940 statement line with a broken amount', () => {
      const mt940 = writeStatement(TRANSACTIONS, 'mt940').toString('latin1').replace('D0,99', 'D0,9,9');
      const line = mt940.split('\r\n').findIndex((text) => text.includes('D0,9,9')) + 1;
      expect(refusal(() => read(Buffer.from(mt940, 'latin1'))).message).toBe(
        `line ${line}: the amount "0,9,9" is not a number`,
      );
    });
  });

  it.each([
    ['Dutch', 'Datum;Naam / Omschrijving;Bedrag (EUR);Mededelingen\n20260131;Albert Heijn 1234;-45,10;Pinbetaling\n'],
    ['Spanish', 'Fecha;Concepto;Importe;Moneda;Observaciones\n31/01/2026;Albert Heijn 1234;-45,10;EUR;Pinbetaling\n'],
  ])('recognises %s header names', (_language, text) => {
    expect(transactionsOf(read(Buffer.from(text)))).toEqual([
      { date: '2026-01-31', amount: '-45.10', currency: 'EUR', payee: 'Albert Heijn 1234', description: 'Pinbetaling' },
    ]);
  });

  it('skips balance lines and empty lines, reading each row from its line', () => {
    const text = 'Datum;Name;Betrag\r\n\r\n31.01.2026;Netflix;-12,99\r\nSaldo;;\r\n;Endsaldo;1.000,00\r\n';
    expect(read(Buffer.from(text))).toMatchObject({
      kind: 'read',
      transactions: [{ date: '2026-01-31', amount: '-12.99', payee: 'Netflix', line: 3 }],
    });
  });
});
