import type { Caller } from '../platform/caller';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { SecretBox } from '../platform/secret-box';
import type { SecondFactor, SecondFactorOutcome } from './auth.service';
import type { LoginThrottle } from './login-throttle';
import {
  isTotpCode,
  newRecoveryCodes,
  newTotpSecret,
  qrCodeDataUrl,
  recoveryCodeHash,
  totpStep,
  totpUri,
} from './one-time-codes';
import type { TwoFactorRepository, TwoFactorRow } from './two-factor.repository';
import type { UserRepository } from './user.repository';

/** What an authenticator app needs to enrol: the URI, its QR code, and the secret for typing in by hand. */
export interface Enrolment {
  uri: string;
  secret: string;
  qrCode: string;
}

/**
 * Two-factor authentication with TOTP (RFC 6238): enrolment confirmed by a code, ten single-use recovery
 * codes, and the check login makes. Every code is good once, and every wrong one counts as a failed login of
 * the account's e-mail (LoginThrottle), wherever it was tried.
 */
export class TwoFactorService implements SecondFactor {
  constructor(
    private readonly data: Transactions,
    private readonly codes: TwoFactorRepository,
    private readonly users: UserRepository,
    private readonly box: SecretBox | null,
    private readonly throttle: LoginThrottle,
    private readonly clock: () => Date,
  ) {}

  /** A new secret, pending until a code confirms it (a pending one is replaced); refused while 2FA is on. */
  async startEnrolment(caller: Caller): Promise<Enrolment> {
    const box = this.sealing();
    const { email } = await this.userOf(caller);
    const secret = newTotpSecret();
    if (!(await this.codes.startEnrolment(caller.userId, box.seal(secret))))
      throw new AppError('CONFLICT', 'Two-factor authentication is on already: turn it off before enrolling again.');
    const uri = totpUri(secret, email);
    return { uri, secret, qrCode: await qrCodeDataUrl(uri) };
  }

  /** Turns 2FA on with a code of the pending secret; answers the recovery codes, shown this once only. */
  async confirm(caller: Caller, code: string, address: string): Promise<string[]> {
    const pending = await this.codes.secretOf(caller.userId);
    if (!pending || pending.enabled)
      throw new AppError('CONFLICT', 'No enrolment is waiting for a code: start one first.');
    return this.withRecoveryCodes(caller, address, async () => {
      const step = isTotpCode(code) ? await this.stepOf(pending, code) : null;
      return step !== null && this.codes.claimTimeStep(caller.userId, step, true);
    });
  }

  /** Turns 2FA off, given a code (TOTP or recovery). */
  async disable(caller: Caller, code: string, address: string): Promise<void> {
    const secret = await this.enabledSecret(caller);
    await this.checked(caller, address, () =>
      this.data.transaction(async () => {
        if (!(await this.used(caller.userId, secret, code))) return false;
        await this.codes.remove(caller.userId);
        return true;
      }),
    );
  }

  /** New recovery codes in place of the old ones, given a code; shown this once only. */
  async regenerateRecoveryCodes(caller: Caller, code: string, address: string): Promise<string[]> {
    const secret = await this.enabledSecret(caller);
    return this.withRecoveryCodes(caller, address, () => this.used(caller.userId, secret, code));
  }

  async status(userId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    return this.codes.status(userId);
  }

  /** Login's second step: passed when 2FA is off or the code is good (and now used). */
  async checkLogin(userId: number, code: string | undefined): Promise<SecondFactorOutcome> {
    const secret = await this.codes.secretOf(userId);
    if (!secret?.enabled) return 'passed';
    if (!code?.trim()) return 'missing';
    return (await this.used(userId, secret, code)) ? 'passed' : 'wrong';
  }

  /** Uses a code of an enabled secret: a TOTP code's step, or a recovery code, each good once. */
  private async used(userId: number, secret: TwoFactorRow, code: string): Promise<boolean> {
    if (!isTotpCode(code)) return this.codes.spendRecoveryCode(userId, recoveryCodeHash(code));
    const step = await this.stepOf(secret, code);
    return step !== null && this.codes.claimTimeStep(userId, step, false);
  }

  private async stepOf(secret: TwoFactorRow, code: string): Promise<number | null> {
    const lastStep = secret.last_time_step === null ? null : Number(secret.last_time_step);
    return totpStep(this.sealing().open(secret.sealed_secret), code, this.clock(), lastStep);
  }

  /** Runs `accept` (a code check) and, in its transaction when it holds, stores ten new recovery codes. */
  private async withRecoveryCodes(caller: Caller, address: string, accept: () => Promise<boolean>): Promise<string[]> {
    const recoveryCodes = newRecoveryCodes();
    await this.checked(caller, address, () =>
      this.data.transaction(async () => {
        if (!(await accept())) return false;
        await this.codes.replaceRecoveryCodes(caller.userId, recoveryCodes.map(recoveryCodeHash));
        return true;
      }),
    );
    return recoveryCodes;
  }

  /** A code check of the signed-in caller's, counted as a login attempt of their e-mail from this address. */
  private async checked(caller: Caller, address: string, check: () => Promise<boolean>): Promise<void> {
    const { email } = await this.userOf(caller);
    const failures = await this.throttle.claimAttempt(email, address);
    if (!(await check())) {
      await this.throttle.failed(failures);
      throw AppError.field('code', 'The code is wrong, or was used already.');
    }
    await this.throttle.succeeded(email, address);
  }

  private async enabledSecret(caller: Caller): Promise<TwoFactorRow> {
    const secret = await this.codes.secretOf(caller.userId);
    if (!secret?.enabled) throw new AppError('CONFLICT', 'Two-factor authentication is not on.');
    return secret;
  }

  private async userOf(caller: Caller): Promise<{ email: string }> {
    const user = await this.users.byId(caller.userId);
    if (!user) throw AppError.unauthenticated();
    return user;
  }

  /** The box secrets are sealed with; without NOTIFY_SECRET_KEY there is none, and no 2FA. */
  private sealing(): SecretBox {
    if (!this.box)
      throw new AppError(
        'CONFLICT',
        'Two-factor authentication needs NOTIFY_SECRET_KEY (at least 32 characters) set on the server; see docs/accounts.md.',
      );
    return this.box;
  }
}
