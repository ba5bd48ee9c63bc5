import { LRUCache } from 'lru-cache';

import { type Caller, isConfirmed, type PendingTokenCheck, type TokenCheckRow } from '../platform/caller';
import type { Config } from '../platform/config';
import { utcTimestamp } from '../platform/db/timestamps';
import { AppError, type FieldErrors, refuseFieldErrors } from '../platform/errors';
import type { AccessTokenRepository } from './access-token.repository';
import { emailProblem, normaliseEmail } from './email';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, PASSWORD_MIN_LENGTH, verifyPassword } from './password';
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

const DAY_MS = 86_400_000;

/** Token identities kept per process: a few hundred bytes each. */
const KNOWN_TOKENS = 10_000;

export class AuthService {
  /** The user and secret hash of tokens this process has found live: facts that never change for a token id. */
  private readonly identities = new LRUCache<number, { userId: number; secretHash: string }>({ max: KNOWN_TOKENS });

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly config: Pick<Config, 'tokenTtlDays'>,
    private readonly throttle: LoginThrottle,
    private readonly signUpGate: SignUpGate,
  ) {}

  /** Checks e-mail and password; the same UNAUTHENTICATED answer for an unknown e-mail and a wrong password. */
  async login(presentedEmail: string, password: string, address: string): Promise<Session> {
    const email = normaliseEmail(presentedEmail);
    const failures = await this.throttle.claimAttempt(email, address);
    const user = await this.users.withPasswordHash(email);
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid || user.status !== 1) {
      await this.throttle.failed(failures);
      throw AppError.unauthenticated('Invalid credentials');
    }
    await this.throttle.succeeded(email, address);
    return { user, token: await this.issueToken(user.id) };
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
      const caller: Caller = { userId: known.userId, tokenId: parsed.id };
      caller.pending = this.pendingCheck(caller, parsed.id);
      return caller;
    }
    const row = await this.tokens.live(parsed.id, this.config.tokenTtlDays);
    if (!row || !matchesHash(parsed.secret, row.secret_hash)) return null;
    this.identities.set(parsed.id, { userId: row.user_id, secretHash: row.secret_hash });
    await this.slideWhenDue(parsed.id, row.renew);
    return { userId: row.user_id, tokenId: parsed.id, dataVersion: row.data_version };
  }

  private pendingCheck(caller: Caller, tokenId: number): PendingTokenCheck {
    const settle = async (row: TokenCheckRow | undefined) => {
      caller.pending = undefined;
      if (!row) return false;
      caller.dataVersion = row.data_version;
      await this.slideWhenDue(tokenId, row.renew);
      return true;
    };
    const { tokens, config } = this;
    return {
      // Made when a read asks for it: most routes confirm the token alone.
      get sql() {
        return tokens.liveCheckSql(tokenId, config.tokenTtlDays);
      },
      confirm: async () => settle((await this.tokens.live(tokenId, this.config.tokenTtlDays)) ?? undefined),
      settle,
    };
  }

  /** Expiry slides: a use pushes it TOKEN_TTL_DAYS on, written at most once an hour per token. */
  private async slideWhenDue(tokenId: number, renew: boolean): Promise<void> {
    if (this.config.tokenTtlDays > 0 && renew) await this.tokens.slide(tokenId, this.config.tokenTtlDays);
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

  /** Self-service account creation, as the sign-up mode allows (ALLOW_SIGNUP until an admin sets one). */
  async signUp(input: SignUpRequest): Promise<Session> {
    const user = await this.signUpGate.admit(input.email, input.invitationCode ?? null, () => this.createUser(input));
    return { user, token: await this.issueToken(user.id) };
  }

  /** Creates an account (sign-up and the CLI); the instance's first account is its admin. */
  async createUser(input: NewUser): Promise<User> {
    const email = normaliseEmail(input.email);
    const name = input.name.trim();
    const problems: FieldErrors = {};
    const emailInvalid = emailProblem(email);
    if (emailInvalid) problems.email = [emailInvalid];
    if (input.password.length < PASSWORD_MIN_LENGTH || input.password.length > 1024) {
      problems.password = [`The password must be from ${PASSWORD_MIN_LENGTH} to 1024 characters.`];
    }
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

  private async issueToken(userId: number): Promise<string> {
    const secret = randomSecret(30);
    const id = await this.tokens.issue(
      userId,
      sha256Hex(secret),
      this.config.tokenTtlDays === 0 ? null : utcTimestamp(new Date(Date.now() + this.config.tokenTtlDays * DAY_MS)),
    );
    return formatAccessToken(id, secret);
  }
}
