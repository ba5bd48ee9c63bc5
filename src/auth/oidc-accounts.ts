import type { AuthService } from './auth.service';
import { normaliseEmail } from './email';
import type { OidcRepository } from './oidc.repository';
import { randomSecret } from './secrets';
import { SignOnRefusal } from './sign-on-refusal';
import type { User } from './user.entity';
import type { UserRepository } from './user.repository';

/** What the provider says about the person: the ID token's claims, with the userinfo's when it has no e-mail. */
export type Profile = Record<string, unknown> & { sub: string };

/** Which account an identity at the provider signs in to: single sign-on's matching rules. */
export class OidcAccounts {
  constructor(
    private readonly logins: OidcRepository,
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly autoSignup: boolean,
  ) {}

  /**
   * The account this identity signs in to: the one linked to it, else the one of its e-mail address when the
   * provider has verified it (then linked), else a new one when OIDC_AUTO_SIGNUP allows. Run in a transaction.
   */
  async accountOf(issuer: string, profile: Profile): Promise<User> {
    const linked = await this.logins.linkedUser(issuer, profile.sub);
    if (linked !== null) return this.active(await this.users.byId(linked));
    if (profile.email_verified !== true || typeof profile.email !== 'string') {
      throw new SignOnRefusal(
        'FORBIDDEN',
        'Your identity provider has not verified your e-mail address, so it cannot sign you in here; nothing was changed',
        'unverified',
      );
    }
    const email = normaliseEmail(profile.email);
    let user = await this.users.byEmail(email);
    if (user && (await this.logins.hasLink(user.id, issuer))) {
      throw new SignOnRefusal(
        'FORBIDDEN',
        'The account of this e-mail address signs in as another identity of your provider',
        'other-identity',
      );
    }
    if (!user) {
      if (!this.autoSignup) {
        throw new SignOnRefusal(
          'FORBIDDEN',
          'You have no account here yet, and single sign-on does not create accounts here',
          'no-account',
        );
      }
      // No password anyone knows: the account signs in by single sign-on (or after a password reset).
      user = await this.auth.createUser({ email, password: randomSecret(32), name: displayName(profile, email) });
    }
    await this.logins.link(this.active(user).id, issuer, profile.sub);
    return user;
  }

  private active(user: User | null): User {
    if (!user || user.status !== 1)
      throw new SignOnRefusal('UNAUTHENTICATED', 'This account cannot sign in', 'disabled');
    return user;
  }
}

/** The provider's name for the person, else the e-mail address's local part. */
function displayName(profile: Profile, email: string): string {
  const name = [profile.name, profile.preferred_username].find((value) => typeof value === 'string' && value.trim());
  return (name as string | undefined)?.trim().slice(0, 200) ?? email.split('@')[0];
}
