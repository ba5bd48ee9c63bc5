/**
 * Where the logos the service keeps are served: shared by the features that answer a logo's URL (records,
 * products) and the logos feature that keeps and serves them.
 */

/** The kind of file every kept logo is (src/logos/ re-encodes each to it). */
export const LOGO_EXTENSION = 'webp';

/** Where logos are served, on the service's own origin. */
export const LOGO_ROUTE = '/logos';

/** A logo's URL, a path on this server (so a page on any of its addresses loads it from its own origin). */
export function logoPath(hash: string | null | undefined): string | null {
  return hash ? `${LOGO_ROUTE}/${hash}.${LOGO_EXTENSION}` : null;
}

/** logoPath in SQL, over a column holding a logo's hash (null: null). */
export function logoPathSql(column: string): string {
  return `('${LOGO_ROUTE}/' || ${column} || '.${LOGO_EXTENSION}')`;
}
