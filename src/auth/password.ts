import argon2 from 'argon2';

/** argon2id with OWASP's minimum recommended cost: 19 MiB memory, 2 passes, 1 lane. */
export const PASSWORD_HASHING = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** The one length rule of a new password (sign-up, a change, a reset); null when it holds. */
export function passwordProblem(password: string): string | null {
  return password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH
    ? `The password must be from ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`
    : null;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, PASSWORD_HASHING);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no stored hash (unknown e-mail) it still spends the same
 * work on a dummy hash, so the answer time does not tell which e-mails exist.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('not-a-real-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return argon2.verify(storedHash, password).catch(() => false);
}
