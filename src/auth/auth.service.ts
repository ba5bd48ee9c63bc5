import { LRUCache } from 'lru-cache';

import {
  type Caller,
  isConfirmed,
  type PendingTokenCheck,
  type TokenCheckRow,
  type UserSettings,
} from '../platform/caller';
import type { Config } from '../platform/config';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import { TokenKind } from './access-token.entity';
import type { AccessTokenRepository, LiveToken } from './access-token.repository';
import { userAgentOf } from './device';
import { emailProblem, normaliseEmail } from './email';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, passwordProblem, verifyPassword } from './password';
import { personNameProblem } from './person-name';
import { formatAccessToken, matchesHash, parseAccessToken, randomSecret, sha256Hex } from './secrets';
import type { SignUpGate } from './sign-up-gate';
import type { User } from './user.entity';
import type { UserRepository } from './user.repository';

export interface NewUser {
  email: string;
  password: string;
  name: string;
}

/** A sign-up: the new account, and the invitation code it was given when the instance asks for one. */
export interface SignUpRequest extends NewUser {
  invitationCode?: string | null;
}

export interface Session {
  user: User;
  token: string;
}

/** How login's second step went: passed (2FA off, or a good code), no code given, or a wrong or used one. */
export type SecondFactorOutcome = 'passed' | 'missing' | 'wrong';

/** The second step of a login (two-factor.service.ts). */
export interface SecondFactor {
  checkLogin(userId: number, code: string | undefined): Promise<SecondFactorOutcome>;
}

/** The answer to a login of an account with 2FA on that came without a code: names the field to send. */
export const TWO_FACTOR_REQUIRED_MESSAGE =
  'Two-factor code required: send the code of your authenticator app (or a recovery code) as the field "code"';

const DAY_MS = 86_400_000;

/** OIDC_ONLY: the answer to a password login or sign-up. */
const PASSWORD_LOGIN_OFF = 'Sign-in is by single sign-on on this server (password login is turned off)';

/** Token identities kept per process: a few hundred bytes each. */
const KNOWN_TOKENS = 10_000;

export class AuthService {
  /** What this process knows of tokens it has found live: facts that never change for a token id. */
  private readonly identities = new LRUCache<number, TokenIdentity>({ max: KNOWN_TOKENS });

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly config: Pick<Config, 'tokenTtlDays' | 'passwordLogin'>,
    private readonly throttle: LoginThrottle,
    private readonly secondFactor: SecondFactor,
    private readonly signUpGate: SignUpGate,
  ) {}

  /**
   * Checks e-mail and password; the same UNAUTHENTICATED answer for an unknown e-mail and a wrong password. With
   * 2FA on, a `code` too: without one TWO_FACTOR_REQUIRED (still a claimed attempt: asking must not clear the
   * failures of wrong codes), a wrong one is a failed login. `device` is the client's User-Agent, shown with the
   * session.
   */
  async login(
    presentedEmail: string,
    password: string,
    address: string,
    { code, device }: { code?: string; device?: string } = {},
  ): Promise<Session> {
    if (!this.config.passwordLogin) throw new AppError('FORBIDDEN', PASSWORD_LOGIN_OFF);
    const email = normaliseEmail(presentedEmail);
    const failures = await this.throttle.claimAttempt(email, address);
    const user = await this.users.withPasswordHash(email);
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid || user.status !== 1) {
      await this.throttle.failed(failures);
      throw AppError.unauthenticated('Invalid credentials');
    }
    const second = await this.secondFactor.checkLogin(user.id, code);
    if (second === 'missing') throw new AppError('TWO_FACTOR_REQUIRED', TWO_FACTOR_REQUIRED_MESSAGE);
    if (second === 'wrong') {
      await this.throttle.failed(failures);
      throw AppError.unauthenticated('Invalid two-factor code');
    }
    await this.throttle.succeeded(email, address);
    return { user, token: await this.issueSession(user.id, device) };
  }

  /** The caller a presented access token stands for, or null when it is malformed, unknown, revoked or expired. */
  async authenticate(presented: string): Promise<Caller | null> {
    const caller = await this.identify(presented);
    return caller && (await isConfirmed(caller)) ? caller : null;
  }

  /**
   * The caller a presented access token claims, null when it is malformed, unknown or its secret is wrong. A
   * token this process has confirmed before is known without the database (its user and secret never change):
   * its caller is then `pending`, to be confirmed live alone or within the request's first read.
   */
  async identify(presented: string): Promise<Caller | null> {
    const parsed = parseAccessToken(presented);
    if (!parsed) return null;
    const known = this.identities.get(parsed.id);
    if (known) {
      if (!matchesHash(parsed.secret, known.secretHash)) return null;
      const caller = callerOf(parsed.id, known);
      caller.pending = this.pendingCheck(caller, parsed.id);
      return caller;
    }
    const row = await this.tokens.live(parsed.id, this.config.tokenTtlDays);
    if (!row || !matchesHash(parsed.secret, row.secret_hash)) return null;
    const identity = identityOf(row);
    this.identities.set(parsed.id, identity);
    await this.touchWhenDue(parsed.id, row.renew);
    return { ...callerOf(parsed.id, identity), dataVersion: row.data_version, settings: settingsOf(row) };
  }

  private pendingCheck(caller: Caller, tokenId: number): PendingTokenCheck {
    const settle = async (row: TokenCheckRow | undefined) => {
      caller.pending = undefined;
      if (!row) return false;
      caller.dataVersion = row.data_version;
      await this.touchWhenDue(tokenId, row.renew);
      return true;
    };
    const { tokens, config } = this;
    return {
      // Made when a read asks for it: most routes confirm the token alone.
      get sql() {
        return tokens.liveCheckSql(tokenId, config.tokenTtlDays);
      },
      confirm: async () => {
        const row = await this.tokens.live(tokenId, this.config.tokenTtlDays);
        if (row) caller.settings = settingsOf(row);
        return settle(row ?? undefined);
      },
      settle,
    };
  }

  /**
   * A use is written at most about once a minute per token (its last-used time), or when a session's expiry
   * is an hour behind (it slides TOKEN_TTL_DAYS on): the write rides on the check, never a query per request.
   */
  private async touchWhenDue(tokenId: number, due: boolean): Promise<void> {
    if (due) await this.tokens.touch(tokenId, this.config.tokenTtlDays);
  }

  /** Revokes the token the caller presented; it gets 401 from then on. */
  async logout(caller: Caller): Promise<void> {
    if (caller.tokenId === null) return;
    await this.tokens.revoke(caller.userId, caller.tokenId);
  }

  async me(caller: Caller): Promise<User> {
    const user = await this.users.byId(caller.userId);
    if (!user) throw AppError.unauthenticated();
    return user;
  }

  /** The account of this e-mail address acting from the shell (an administrator's command, no token). */
  async callerByEmail(email: string): Promise<Caller> {
    const user = await this.users.byEmail(normaliseEmail(email));
    if (!user) throw AppError.notFound('User');
    return { userId: user.id, tokenId: null };
  }

  /**
   * Self-service account creation, as the sign-up mode allows (ALLOW_SIGNUP until an admin sets one); signs in
   * from `device` (a User-Agent).
   */
  async signUp(input: SignUpRequest, device?: string): Promise<Session> {
    if (!this.config.passwordLogin) throw new AppError('FORBIDDEN', PASSWORD_LOGIN_OFF);
    const user = await this.signUpGate.admit(input.email, input.invitationCode ?? null, () => this.createUser(input));
    return { user, token: await this.issueSession(user.id, device) };
  }

  /** Creates an account (sign-up and the CLI); the instance's first account is its admin. */
  async createUser(input: NewUser): Promise<User> {
    const email = normaliseEmail(input.email);
    const name = input.name.trim();
    const problems: FieldErrors = {};
    const emailInvalid = emailProblem(email);
    if (emailInvalid) problems.email = [emailInvalid];
    const passwordInvalid = passwordProblem(input.password);
    if (passwordInvalid) problems.password = [passwordInvalid];
    const nameProblem = personNameProblem(name);
    if (nameProblem) problems.name = [nameProblem];
    refuseFieldErrors(problems);

    if (await this.users.emailTaken(email)) {
      // A generic refusal, not "taken": sign-up should not confirm who has an account (login answers an unknown
      // e-mail and a wrong password alike).
      throw new AppError('BAD_USER_INPUT', 'Sign-up was refused', {
        email: ['This e-mail address cannot be used to sign up.'],
      });
    }
    const [firstName, ...rest] = name.split(/\s+/);
    return this.users.create({
      email,
      name,
      firstName,
      lastName: rest.join(' '),
      passwordHash: await hashPassword(input.password),
      emailVerifiedAt: utcTimestamp(),
    });
  }

  /** A new sign-in session of the user's (a login, a sign-up, a finished single sign-on) from `userAgent`'s device. */
  async issueSession(userId: number, userAgent: string | undefined): Promise<string> {
    const secret = randomSecret(30);
    const { id } = await this.tokens.issue(userId, sha256Hex(secret), {
      kind: TokenKind.SESSION,
      device: userAgentOf(userAgent),
      expiresAt:
        this.config.tokenTtlDays === 0 ? null : utcTimestamp(new Date(Date.now() + this.config.tokenTtlDays * DAY_MS)),
    });
    return formatAccessToken(id, secret);
  }
}

/** A live token's facts that never change: its user, secret hash, scope and kind. */
interface TokenIdentity {
  userId: number;
  secretHash: string;
  readOnly: boolean;
  personal: boolean;
}

function identityOf(row: LiveToken): TokenIdentity {
  return { userId: row.user_id, secretHash: row.secret_hash, readOnly: row.read_only, personal: row.personal };
}

function settingsOf(row: LiveToken): UserSettings {
  return { timezone: row.timezone, baseCurrency: row.base_currency, country: row.country };
}

function callerOf(tokenId: number, identity: TokenIdentity): Caller {
  return { userId: identity.userId, tokenId, readOnly: identity.readOnly, personal: identity.personal };
}
