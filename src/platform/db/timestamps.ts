/** Timestamps are stored as `timestamp(6)` in UTC and travel as strings, never as `Date` objects. */

/**
 * SQL default for timestamp columns: now, in UTC, whatever the session's zone. Written as PostgreSQL
 * prints it back, so the schema diff (migration:create) sees no change.
 */
export const SQL_UTC_NOW = "(now() AT TIME ZONE 'utc'::text)";

/** `YYYY-MM-DD HH:MM:SS.ffffff` for the given instant, in UTC (as the database stores it). */
export function utcTimestamp(instant: Date = new Date()): string {
  return `${instant.toISOString().slice(0, 23).replace('T', ' ')}000`;
}

/** `YYYY-MM-DD HH:MM:SS`: the form of subscription, product and user records. */
export function toSqlSeconds(stored: string | null): string | null {
  return stored === null ? null : stored.replace('T', ' ').slice(0, 19);
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the form of alert and category records. */
export function toIsoMicros(stored: string | null): string | null {
  if (stored === null) return null;
  const [date, time] = stored.replace('T', ' ').split(' ');
  const [clock, fraction = ''] = time.split('.');
  return `${date}T${clock}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}
