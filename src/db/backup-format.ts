import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The backup file (see docs/backups.md), gzip-compressed as a whole:
 *
 *   SUBLEDGER-BACKUP 1\n          the signature and the format's version
 *   {manifest}\n                  one line of JSON: schema version (the applied migrations), tables, sequences
 *   per table, in the manifest's order (a table after the tables it refers to):
 *     frames of u32 big-endian length + that many bytes of `COPY ... TO STDOUT (FORMAT binary)`, then a 0 length
 *   {trailer}\n                   one line of JSON: the rows of each table, which ends the file
 *
 * Nothing here reads or writes the database: backup.ts does, through these.
 */
export const BACKUP_SIGNATURE = 'SUBLEDGER-BACKUP';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupColumn {
  name: string;
  /** As format_type() spells it, e.g. `timestamp(6) without time zone`. */
  type: string;
}

export interface BackupTable {
  name: string;
  columns: BackupColumn[];
}

export interface BackupSequence {
  name: string;
  /** The value nextval() last gave (bigint as text), or null when it never did. */
  lastValue: string | null;
  startValue: string;
}

export interface BackupManifest {
  format: 'subledger-backup';
  version: typeof BACKUP_FORMAT_VERSION;
  /** When the snapshot was taken, by the database's clock. */
  createdAt: string;
  subledgerVersion: string;
  postgresVersion: string;
  /** The schema version: the migrations applied, oldest first (the last one names it). */
  migrations: string[];
  tables: BackupTable[];
  sequences: BackupSequence[];
}

export interface BackupTrailer {
  end: 'subledger-backup';
  rows: Record<string, number>;
}

/** The file is not a backup this version reads, or it is damaged: the message says which, and how. */
export class BackupFileError extends Error {}

/** Frames of about this size: COPY sends a message per row, and one frame each would cost 4 bytes a row. */
const FRAME_BYTES = 64 * 1024;
/** No frame or line of a backup is larger; a length beyond it is damage, not data to allocate for. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** The 11-byte signature that starts COPY's binary format. */
const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A line of the file: text and its newline. */
export function line(text: string): Buffer {
  return Buffer.from(`${text}\n`, 'utf8');
}

function lengthPrefix(length: number): Buffer {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(length, 0);
  return prefix;
}

/** A table's section: its COPY output in frames of about FRAME_BYTES, then the empty frame that ends it. */
export async function* tableSection(copy: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of copy) {
    pending.push(chunk);
    size += chunk.length;
    if (size >= FRAME_BYTES) {
      yield Buffer.concat([lengthPrefix(size), ...pending]);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat([lengthPrefix(size), ...pending]);
  yield lengthPrefix(0);
}

/** Reads a stream by lengths and lines, as the format asks. */
class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, next.value]) : next.value;
    return true;
  }

  async take(length: number, what: string): Promise<Buffer> {
    while (this.buffer.length < length) {
      if (!(await this.more())) throw new BackupFileError(`it ends early, in ${what}`);
    }
    const taken = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return taken;
  }

  async line(what: string): Promise<string> {
    for (let searched = 0; ;) {
      const end = this.buffer.indexOf(0x0a, searched);
      if (end >= 0) {
        const text = this.buffer.toString('utf8', 0, end);
        this.buffer = this.buffer.subarray(end + 1);
        return text;
      }
      if (this.buffer.length > MAX_LINE_BYTES) throw new BackupFileError(`${what} is not where it should be`);
      searched = this.buffer.length;
      if (!(await this.more())) throw new BackupFileError(`it ends early, in ${what}`);
    }
  }

  async atEnd(): Promise<boolean> {
    while (this.buffer.length === 0) {
      if (!(await this.more())) return true;
    }
    return false;
  }
}

/** An open backup: its manifest, then its tables' sections in order, then its trailer. */
export interface BackupFile {
  manifest: BackupManifest;
  /** The COPY bytes of the next table (call once per table of the manifest, in order, reading each to its end). */
  section(table: BackupTable): AsyncGenerator<Buffer>;
  /** After the last section: the trailer, and that nothing follows it. */
  trailer(): Promise<BackupTrailer>;
  close(): void;
}

/** The decompressed bytes of `file`; a read or gzip failure becomes a BackupFileError naming the file. */
async function* decompressed(file: string, onOpen: (close: () => void) => void): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  pipeline(source, gunzip, () => undefined);
  onOpen(() => gunzip.destroy());
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new BackupFileError(`cannot read it: ${message}`);
    if (code === 'Z_DATA_ERROR' && /header/.test(message)) throw new BackupFileError('it is not gzip-compressed');
    throw new BackupFileError(`it is damaged or incomplete (gzip: ${message})`);
  }
}

/** Opens `file` and reads its signature and manifest; anything else than a backup of this format is refused. */
export async function openBackup(file: string): Promise<BackupFile> {
  let close: () => void = () => undefined;
  const reader = new ByteReader(decompressed(file, (closer) => (close = closer)));
  try {
    const signature = await reader.line('its first line');
    const [name, version] = signature.split(' ');
    if (name !== BACKUP_SIGNATURE) throw new BackupFileError('it is not a Subledger backup');
    if (version !== String(BACKUP_FORMAT_VERSION)) {
      throw new BackupFileError(
        `it is in backup format ${version}, which this Subledger (format ${BACKUP_FORMAT_VERSION}) does not read`,
      );
    }
    const manifest = checkManifest(parseJson(await reader.line('its manifest'), 'its manifest'));
    return {
      manifest,
      section: (table) => sectionOf(reader, table),
      async trailer() {
        const trailer = checkTrailer(parseJson(await reader.line('its trailer'), 'its trailer'), manifest);
        if (!(await reader.atEnd())) throw new BackupFileError('something follows its end');
        return trailer;
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

async function* sectionOf(reader: ByteReader, table: BackupTable): AsyncGenerator<Buffer> {
  const what = `the rows of ${table.name}`;
  for (;;) {
    const length = (await reader.take(4, what)).readUInt32BE(0);
    if (length === 0) return;
    if (length > MAX_FRAME_BYTES) throw new BackupFileError(`${what} are damaged (a frame of ${length} bytes)`);
    yield await reader.take(length, what);
  }
}

/**
 * The rows of a section, counted by walking COPY's binary format (signature, flags, header extension, then
 * rows of a field count and length-prefixed fields, then -1): damage inside a section is found before a
 * restore begins, and every row must have the manifest's columns.
 */
export async function countRows(section: AsyncIterable<Buffer>, table: BackupTable): Promise<number> {
  const what = `the rows of ${table.name}`;
  const reader = new ByteReader(section);
  if (!(await reader.take(COPY_SIGNATURE.length, what)).equals(COPY_SIGNATURE))
    throw new BackupFileError(`${what} are not COPY's binary format`);
  await reader.take(4, what);
  await reader.take((await reader.take(4, what)).readUInt32BE(0), what);
  let rows = 0;
  for (;;) {
    const fields = (await reader.take(2, what)).readInt16BE(0);
    if (fields === -1) break;
    if (fields !== table.columns.length)
      throw new BackupFileError(`${what} are damaged (a row of ${fields} fields, not ${table.columns.length})`);
    for (let field = 0; field < fields; field++) {
      const length = (await reader.take(4, what)).readInt32BE(0);
      if (length < -1) throw new BackupFileError(`${what} are damaged (a field of length ${length})`);
      if (length > 0) await reader.take(length, what);
    }
    rows++;
  }
  if (!(await reader.atEnd())) throw new BackupFileError(`${what} are damaged (bytes after their end)`);
  return rows;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new BackupFileError(`${what} is damaged (not JSON)`);
  }
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function checkManifest(value: unknown): BackupManifest {
  const manifest = value as BackupManifest;
  const damaged = (part: string) => new BackupFileError(`its manifest is damaged (${part})`);
  if (
    typeof manifest !== 'object' ||
    manifest === null ||
    manifest.format !== 'subledger-backup' ||
    manifest.version !== BACKUP_FORMAT_VERSION
  ) {
    throw damaged('format');
  }
  if (!isText(manifest.createdAt) || !isText(manifest.subledgerVersion) || !isText(manifest.postgresVersion))
    throw damaged('origin');
  if (!Array.isArray(manifest.migrations) || manifest.migrations.length === 0 || !manifest.migrations.every(isText))
    throw damaged('migrations');
  if (!Array.isArray(manifest.tables) || manifest.tables.length === 0) throw damaged('tables');
  const names = new Set<string>();
  for (const table of manifest.tables) {
    if (!isText(table?.name) || names.has(table.name) || !Array.isArray(table.columns) || table.columns.length === 0)
      throw damaged('tables');
    if (!table.columns.every((column) => isText(column?.name) && isText(column.type)))
      throw damaged(`columns of ${table.name}`);
    names.add(table.name);
  }
  const bigint = (text: unknown) => typeof text === 'string' && /^-?\d{1,19}$/.test(text);
  if (!Array.isArray(manifest.sequences)) throw damaged('sequences');
  for (const sequence of manifest.sequences) {
    if (
      !isText(sequence?.name) ||
      !(sequence.lastValue === null || bigint(sequence.lastValue)) ||
      !bigint(sequence.startValue)
    )
      throw damaged('sequences');
  }
  return manifest;
}

function checkTrailer(value: unknown, manifest: BackupManifest): BackupTrailer {
  const trailer = value as BackupTrailer;
  if (
    typeof trailer !== 'object' ||
    trailer === null ||
    trailer.end !== 'subledger-backup' ||
    typeof trailer.rows !== 'object' ||
    trailer.rows === null
  ) {
    throw new BackupFileError('its trailer is damaged');
  }
  const counted = Object.keys(trailer.rows);
  const listed = manifest.tables.map((table) => table.name);
  const complete =
    counted.length === listed.length &&
    listed.every((name) => Number.isSafeInteger(trailer.rows[name]) && trailer.rows[name] >= 0);
  if (!complete) throw new BackupFileError('its trailer is damaged (row counts)');
  return trailer;
}
