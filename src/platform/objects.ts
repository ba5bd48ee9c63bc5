/** The object without its undefined fields: "not sent" stays apart from an explicit null. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** Text for a SQL LIKE pattern with its wildcards (`%`, `_`) and the escape character taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** One key of a list's order: `field[:asc|desc]` on the wire. */
export interface SortKey<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** A MikroORM order for sort keys over entity properties, with the id last so pages never overlap. */
export function entityOrder<F extends string>(
  keys: SortKey<F>[],
  properties: Record<F, string>,
): Array<Record<string, 'asc' | 'desc'>> {
  const order = keys.map((key) => ({ [properties[key.field]]: key.direction }));
  return [...order, { id: keys[0]?.direction ?? 'asc' }];
}

/** Characters (code points) in a text, as people and PostgreSQL's varchar count them, not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

/** Whether the trimmed text has from `min` to `max` characters. */
export function hasLength(text: string, min: number, max: number): boolean {
  const count = characterCount(text.trim());
  return count >= min && count <= max;
}
