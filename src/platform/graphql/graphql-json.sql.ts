/**
 * The SQL twins of what GraphQL answers in JavaScript, for answers PostgreSQL writes whole (see
 * written-answers.ts): each gives the same JSON value as its counterpart for the same row. Expressions are
 * SQL text over columns the caller names; nothing here takes a client's input.
 */

/** Buffer's base64url of a text: unpadded, and without the line breaks PostgreSQL puts in long base64. */
function base64UrlSql(text: string): string {
  return `translate(encode(convert_to(${text}, 'UTF8'), 'base64'), '+/=' || chr(10), '-_')`;
}

/** toGlobalId (global-ids.ts): base64url of `Type:id`. */
export function globalIdSql(typeName: string, id: string): string {
  return base64UrlSql(`'${typeName}:' || ${id}`);
}

/** encodeCursor (cursors.ts) of an offset. */
export function cursorSql(offset: string): string {
  return base64UrlSql(`'offset:' || ${offset}`);
}

/** An enum's name for the stored code in `column` (its values are the codes, as registerEnumType has them). */
export function enumSql(values: Readonly<Record<string, number>>, column: string): string {
  const cases = Object.entries(values).map(([name, code]) => `when ${Number(code)} then '${name}'`);
  return `(case ${column} ${cases.join(' ')} end)`;
}

/**
 * A stored UTC timestamp as the DateTime scalar answers it (toIsoMicros in wire-formats.ts, then graphql-scalars'
 * DateTime, which keeps JavaScript's milliseconds: microseconds are cut, not rounded).
 */
export function dateTimeSql(column: string): string {
  return `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A JSON object of these keys (GraphQL response keys: names the parser allows, safe as quoted identifiers) and
 * values (SQL expressions), in this order, written as JSON.stringify writes it (json_build_object spaces its
 * keys and values apart).
 */
export function jsonObjectSql(entries: ReadonlyArray<readonly [key: string, value: string]>): string {
  return `(select row_to_json(j) from (select ${entries.map(([key, value]) => `${value} as "${key}"`).join(', ')}) j)`;
}
