import { randomBytes } from 'node:crypto';

import { generateSecret, generateURI, verify } from 'otplib';
import { toString as qrCodeSvg } from 'qrcode';

import { sha256Hex } from './secrets';

/** The issuer an authenticator app files the account under. */
const ISSUER = 'Subledger';
/** A code stays good for the step before and the step after its own: phone clocks drift. */
const TOLERANCE_SECONDS = 30;

/** A new TOTP secret: 20 random bytes (RFC 4226's recommendation), in Base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app reads from the QR code (SHA-1, 6 digits, 30 seconds: every app's defaults). */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/** The QR code of a URI as an SVG data: URL, drawn here: the browser shows it without asking anyone else. */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await qrCodeSvg(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** Whether a presented code has the shape of a TOTP code (six digits; spaces ignored) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

/**
 * The time step a TOTP code is good for at `now`, after `afterStep` (the last one used), or null when it is
 * wrong, stale or of a step used already.
 */
export async function totpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code.replace(/\s+/g, ''),
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

export const RECOVERY_CODE_COUNT = 10;
/** Crockford's Base32: no I, L, O or U, so a code read aloud or copied by hand stays one code. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ten recovery codes of 16 characters (80 random bits each), written `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = [...randomBytes(16)].map((byte) => RECOVERY_ALPHABET[byte % 32]).join('');
    return characters.match(/.{4}/g)!.join('-');
  });
}

/** The stored hash of a recovery code, however it was typed (case, dashes, spaces, I/L for 1 and O for 0). */
export function recoveryCodeHash(code: string): string {
  const normalised = code
    .toLowerCase()
    .replace(/[^0-9a-z]/g, '')
    .replace(/[il]/g, '1')
    .replace(/o/g, '0');
  return sha256Hex(normalised);
}
