/**
 * The one form of an e-mail address used everywhere it is a key (accounts, login throttling): NFC, trimmed,
 * lower-cased, so " Carol@Example.com" and "carol@example.com" are one account and one throttle.
 */
export function normaliseEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}
