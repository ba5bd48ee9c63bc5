import { detectSeries } from '../../src/detection/detect';
import type { BankTransaction, StatementFormat } from '../../src/detection/statement';
import { readStatement } from '../../src/detection/statement-formats/read-statement';
import { addMonths } from '../../src/platform/dates';
import { generateStatement, scoreDetection } from '../support/statement-generator';
import { type CsvStyle, writeStatement } from '../support/statement-writers';

const SEEDS = 50;
const FROM = '2025-01-01';
const LARGE_STATEMENT = 10_000;
/** Year-long statements, as people download them (a yearly series then shows one payment: no true series). */
const STATEMENT_MONTHS = 12;

/** The statement files the bench writes, and reads back before detection: every format, every CSV layout. */
export const STATEMENT_FILES: Array<{ name: string; format: StatementFormat; style?: CsvStyle }> = [
  { name: 'csv-english', format: 'csv', style: 'english' },
  { name: 'csv-german', format: 'csv', style: 'german' },
  { name: 'csv-us', format: 'csv', style: 'us' },
  { name: 'csv-french', format: 'csv', style: 'french' },
  { name: 'ofx', format: 'ofx' },
  { name: 'camt053', format: 'camt053' },
  { name: 'mt940', format: 'mt940' },
];

/** A statement written as a file of this kind and read back, as an upload would be. */
export function viaFile(
  file: (typeof STATEMENT_FILES)[number],
): (transactions: BankTransaction[]) => BankTransaction[] {
  return (transactions) => {
    const reading = readStatement(writeStatement(transactions, file.format, file.style), { defaultCurrency: 'EUR' });
    if (reading.kind !== 'read') throw new Error(`the ${file.name} statement was not read`);
    return reading.transactions;
  };
}

/**
 * The detector's quality over generated statements with known series: precision and recall of the series (a
 * detection counts when its payee and period match a true series), the share of payee matches with the right
 * period, and the time to analyse a 10,000-transaction statement.
 * `transactionsVia` passes each statement through something first (a file format written and read back).
 */
export async function detectionQuality(
  transactionsVia: (transactions: BankTransaction[]) => BankTransaction[] | Promise<BankTransaction[]> = (
    transactions,
  ) => transactions,
): Promise<{ precision: number; recall: number; periodsRight: number; seeds: number; tenThousandMs: number }> {
  const totals = { detected: 0, truths: 0, matched: 0, periodsRight: 0 };
  for (let seed = 1; seed <= SEEDS; seed++) {
    const { transactions, truth } = generateStatement(seed, { from: FROM, months: STATEMENT_MONTHS });
    const score = scoreDetection(detectSeries(await transactionsVia(transactions)), truth);
    for (const figure of Object.keys(totals) as Array<keyof typeof totals>) totals[figure] += score[figure];
  }
  const rightOf = (total: number) => Math.round((totals.periodsRight / total) * 1000) / 1000;
  return {
    precision: rightOf(totals.detected),
    recall: rightOf(totals.truths),
    periodsRight: rightOf(totals.matched),
    seeds: SEEDS,
    tenThousandMs: timeToAnalyse(largeStatement(), transactionsVia),
  };
}

/** 10,000 transactions: generated statements one after the other, each 24 months after the one before. */
function largeStatement(): BankTransaction[] {
  const transactions: BankTransaction[] = [];
  for (let seed = 1; transactions.length < LARGE_STATEMENT; seed++) {
    transactions.push(...generateStatement(seed, { from: addMonths(FROM, 24 * (seed - 1)) }).transactions);
  }
  return transactions.slice(0, LARGE_STATEMENT).map((transaction, i) => ({ ...transaction, line: i + 2 }));
}

/** The fastest of three runs (the file read too, when there is one), in whole milliseconds. */
function timeToAnalyse(
  transactions: BankTransaction[],
  transactionsVia: (transactions: BankTransaction[]) => BankTransaction[] | Promise<BankTransaction[]>,
): number {
  let fastest = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = process.hrtime.bigint();
    detectSeries(transactionsVia(transactions) as BankTransaction[]);
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return Math.round(fastest);
}
