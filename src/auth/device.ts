import Bowser from 'bowser';

/** The longest User-Agent kept (the column's width). */
const USER_AGENT_MAX = 255;

/**
 * The User-Agent a sign-in came with, as kept: whitespace and control characters collapsed, cut to the
 * column's width; null when none was sent.
 */
export function userAgentOf(header: string | undefined): string | null {
  // Control characters have no place in a name shown in a list.
  const collapsed = (header ?? '').replace(/[\p{Cc}\s]+/gu, ' ').trim();
  // Cut by code points, as PostgreSQL counts a varchar's length.
  const kept = [...collapsed].slice(0, USER_AGENT_MAX).join('').trim();
  return kept === '' ? null : kept;
}

/**
 * What a session shows as its device: "Firefox 133 on Linux" for a browser Bowser knows, else the kept
 * User-Agent as it is (a script's "subledger-cli/1.0"); null when none was sent.
 */
export function deviceName(userAgent: string | null): string | null {
  if (userAgent === null) return null;
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name) return userAgent;
  const major = browser.version?.split('.')[0];
  return [browser.name, major, os.name && `on ${os.name}`].filter(Boolean).join(' ');
}
