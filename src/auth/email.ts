/**
 * The one form of an e-mail address used everywhere it is a key (accounts, login throttling): NFC, trimmed,
 * lower-cased, so " Carol@Example.com" and "carol@example.com" are one account and one throttle.
 */
export function normaliseEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The one check of an e-mail address (normalised first); null when it holds. */
export function emailProblem(email: string): string | null {
  return EMAIL_PATTERN.test(email) && email.length <= 320 ? null : 'The email must be a valid e-mail address.';
}
