import { AppError } from '../errors';

/**
 * Global ids: opaque to clients, they name the type and the row (`SubscriptionRecord:42`, base64url), so
 * `node(id:)` can find any object and an id given for the wrong type is refused rather than misread.
 */
export function toGlobalId(typeName: string, id: number | string): string {
  return Buffer.from(`${typeName}:${id}`).toString('base64url');
}

/** Row ids are PostgreSQL `serial`s: a larger number names no row (and would fail the query as out of range). */
const MAX_ROW_ID = 2_147_483_647;

/** The type name and row id a global id holds; null for anything that is not one this API gave out. */
export function fromGlobalId(globalId: string): { typeName: string; id: number } | null {
  const match = /^([A-Za-z][A-Za-z0-9]*):(\d{1,15})$/.exec(Buffer.from(globalId, 'base64url').toString('utf8'));
  return match && Number(match[2]) <= MAX_ROW_ID ? { typeName: match[1]!, id: Number(match[2]) } : null;
}

/**
 * The row id of a global id of `typeName` given in `field`: an id of another type, or none at all, is a
 * "not found" of that field (as another user's id is).
 */
export function idOf(globalId: string, typeName: string, field = 'id'): number {
  const decoded = fromGlobalId(globalId);
  if (!decoded || decoded.typeName !== typeName) {
    const message = `No ${typeName} has the id ${JSON.stringify(globalId)}.`;
    throw new AppError('NOT_FOUND', message, { [field]: [message] });
  }
  return decoded.id;
}

/** idOf for each id of a list, named `field.index` in errors. */
export function idsOf(globalIds: readonly string[], typeName: string, field: string): number[] {
  return globalIds.map((globalId, index) => idOf(globalId, typeName, `${field}.${index}`));
}

/** idOf for an optional id: undefined stays undefined (not given), null stays null (cleared). */
export function optionalIdOf(
  globalId: string | null | undefined,
  typeName: string,
  field: string,
): number | null | undefined {
  return globalId === null || globalId === undefined ? globalId : idOf(globalId, typeName, field);
}
