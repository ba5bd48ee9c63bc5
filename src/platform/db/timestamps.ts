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

/** The instant a stored UTC timestamp names (utcTimestamp's inverse). */
export function fromUtcTimestamp(stored: string): Date {
  return new Date(`${stored.replace(' ', 'T')}Z`);
}
