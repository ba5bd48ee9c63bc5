import { once } from 'node:events';
import type { Readable } from 'node:stream';

import { unescapeFormula } from '../platform/csv-formulas';
import { AppError } from '../platform/errors';

/** A file's first bytes (at least its first line, when it has one) and the stream of the rest. */
export interface PeekedFile {
  head: Buffer;
  rest: AsyncIterator<Buffer>;
  /** Whether the upload stopped at its size limit (busboy then ends the file early, without an error). */
  truncated: () => boolean;
}

/** The error of a file over the upload limit. */
export const fileTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The file is over the 10 MB an import takes.');

const NEWLINE = 0x0a;
const UTF8_BOM = '\ufeff';

/** Reads a file until its first line is whole, without reading the rest. */
export async function peek(source: Readable): Promise<PeekedFile> {
  const rest = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let head = Buffer.alloc(0);
  while (!head.includes(NEWLINE)) {
    const next = await rest.next();
    if (next.done) break;
    chunks.push(Buffer.from(next.value));
    head = Buffer.concat(chunks);
  }
  return { head, rest, truncated: () => (source as { truncated?: boolean }).truncated === true };
}

/** The first character of the file that is not white space or a byte order mark ("" when it has none). */
export function firstCharacter(file: PeekedFile): string {
  return file.head.toString('utf8').replace(UTF8_BOM, '').trimStart().charAt(0);
}

/**
 * Writes the peeked file into a stream parser, heeding its back pressure; a read error ends the parser. The
 * answer stops the feeding when the reader leaves early (a refused file).
 */
function feed(file: PeekedFile, parser: NodeJS.WritableStream & { destroy(error?: Error): void }): () => void {
  const stop = new AbortController();
  void (async () => {
    try {
      if (!parser.write(file.head)) await once(parser, 'drain', { signal: stop.signal });
      for (let next = await file.rest.next(); !next.done && !stop.signal.aborted; next = await file.rest.next()) {
        if (!parser.write(next.value)) await once(parser, 'drain', { signal: stop.signal });
      }
      if (file.truncated()) throw fileTooLarge();
      parser.end();
    } catch (error) {
      if (!stop.signal.aborted) parser.destroy(error as Error);
    }
  })();
  return () => {
    stop.abort();
    parser.destroy();
    void file.rest.return?.();
  };
}

/** The CSV delimiter a header line uses: whichever of comma, semicolon and tab it has most of. */
function delimiterOf(header: string): string {
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length] as const);
  return counts.reduce((best, candidate) => (candidate[1] > best[1] ? candidate : best))[0];
}

/**
 * The records of a CSV file as it streams in, each with the line it starts on: a byte order mark, quoted
 * fields with newlines, and comma, semicolon or tab delimiters (as a spreadsheet saves them) are read. A
 * cell escaped against spreadsheet formulas (an apostrophe before =, +, -, @, tab or CR, as the CSV export
 * writes it) is read without its apostrophe.
 */
export async function* csvRecords(file: PeekedFile): AsyncGenerator<{ line: number; fields: string[] }> {
  const firstLine = file.head.toString('utf8').split('\n')[0];
  // The parsers load with the first import, not in every API process (as bullmq does: see platform/queues).
  const { parse } = require('csv-parse') as typeof import('csv-parse');
  const parser = parse({ delimiter: delimiterOf(firstLine), bom: true, relax_column_count: true, relax_quotes: true });
  const stop = feed(file, parser);
  // Lines are counted here: csv-parse counts CR and LF apart within quotes, and skipped lines not at all.
  let line = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      const start = line;
      line += 1 + fields.reduce((sum, field) => sum + (field.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
      if (fields.length === 1 && fields[0].trim() === '') continue;
      yield { line: start, fields: fields.map(unescapeFormula) };
    }
  } catch (error) {
    throw unreadable(error, 'CSV');
  } finally {
    stop();
  }
}

/**
 * The values of a JSON file at these paths (JSONPath's `$`, names and `*`), each as it is parsed, with its
 * key: a file of many records is never held as one string or one object.
 */
export async function* jsonValues(
  file: PeekedFile,
  paths: string[],
): AsyncGenerator<{ key: string | number | undefined; depth: number; value: unknown }> {
  const { JSONParser } = require('@streamparser/json-node') as typeof import('@streamparser/json-node');
  const parser = new JSONParser({ paths, keepStack: false });
  const stop = feed(file, parser);
  try {
    for await (const element of parser as AsyncIterable<{ key?: string | number; stack: unknown[]; value: unknown }>) {
      yield { key: element.key, depth: element.stack.length, value: element.value };
    }
  } catch (error) {
    throw unreadable(error, 'JSON');
  } finally {
    stop();
  }
}

/** Why a file could not be read: over the upload limit (the upload's 413), or not in the format. */
function unreadable(error: unknown, format: string): AppError {
  if (error instanceof AppError) return error;
  if ((error as { status?: number }).status === 413) return fileTooLarge();
  return AppError.badInput(`The file is not readable as ${format}: ${(error as Error).message}`);
}
