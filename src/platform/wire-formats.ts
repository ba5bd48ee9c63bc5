/**
 * How stored UTC timestamps (`YYYY-MM-DD HH:MM:SS.ffffff`) are written in answers. They are wire formats,
 * not storage: REST shapes, GraphQL's DateTime and webhook bodies (which are built in the writing
 * transaction, so inside the domain) all use them, which is why they live here and not in rest-facade/.
 */

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
