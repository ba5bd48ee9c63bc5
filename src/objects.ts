/** The object without its undefined fields: "not sent" stays apart from an explicit null. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** Text for a SQL LIKE pattern with its wildcards (`%`, `_`) and the escape character taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
