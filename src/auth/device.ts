/** The longest device name kept (the column's width). */
const DEVICE_MAX = 255;

/**
 * What a session shows as its device: the client's User-Agent at sign-in, whitespace collapsed and cut to the
 * column's width (no parser is installed to shorten it to "Chrome on Linux"); null when none was sent.
 */
export function deviceOf(userAgent: string | undefined): string | null {
  // Control characters have no place in a name shown in a list.
  const collapsed = (userAgent ?? '').replace(/[\p{Cc}\s]+/gu, ' ').trim();
  // Cut by code points, as PostgreSQL counts a varchar's length.
  const device = [...collapsed].slice(0, DEVICE_MAX).join('').trim();
  return device === '' ? null : device;
}
