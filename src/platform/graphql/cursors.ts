import { AppError } from '../errors';

/** Offset cursors: opaque to clients, stable for a given order and filter. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

/** The offset of a cursor given in the argument `field` (after, before). */
export function decodeCursor(cursor: string, field = 'after'): number {
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw AppError.field(field, `The ${field} cursor is not one this API gave out.`);
  return Number(match[1]);
}
