/**
 * Formula injection in CSV files (OWASP's "CSV Injection"): spreadsheet programs run a cell that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return (or the full-width `＝ ＋ － ＠`) as a formula. The CSV
 * export writes such a text with an apostrophe before it (csv-stringify's `escape_formulas`), which
 * spreadsheets show as text; the import takes that apostrophe off, so an export read back is what was
 * written. Shared by the export (rest-facade) and the import (src/imports), which must agree on it.
 *
 * `escape_formulas` alone cannot be read back for certain: a text that already begins with apostrophes before
 * one of those characters (`'=1`) is written as it is, and would lose its apostrophe on the way in. Such a
 * text gets one more, so a cell is escaped exactly when it matches ESCAPED, and only those lose one.
 * Numbers (a negative price) are written as they are: only texts are escaped.
 */
const ESCAPED = /^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A text as the export hands it to csv-stringify (its `cast.string`), which then escapes the texts that begin
 * with a formula character: this escapes the ones that begin with apostrophes before one.
 */
export function escapeQuotedFormula(text: string): string {
  return ESCAPED.test(text) ? `'${text}` : text;
}

/** A CSV cell as it was before the export escaped it: one leading apostrophe off an escaped cell. */
export function unescapeFormula(cell: string): string {
  return ESCAPED.test(cell) ? cell.slice(1) : cell;
}
