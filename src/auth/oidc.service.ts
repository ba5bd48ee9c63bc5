import type { Config } from '../platform/config';
import type { Transactions } from '../platform/db/data-source';
import { AppError } from '../platform/errors';
import type { AuthService, Session } from './auth.service';
import type { OidcRepository } from './oidc.repository';
import { OidcAccounts, type Profile } from './oidc-accounts';
import { type OidcProvider, OidcProviderClient } from './oidc-client';
import { randomSecret, sha256Hex } from './secrets';
import { SignOnRefusal } from './sign-on-refusal';
import type { UserRepository } from './user.repository';

/** How long a login may stay at the provider before its callback. */
const LOGIN_TTL_SECONDS = 600;
/** How long the dashboard has to exchange the one-time code it was handed. */
const CODE_TTL_SECONDS = 60;

export const OIDC_LOGIN_PATH = '/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';

export interface SignInMethods {
  singleSignOn: boolean;
  /** Where a single sign-on starts; null without one. */
  singleSignOnUrl: string | null;
  passwordLogin: boolean;
}

/**
 * Single sign-on over OpenID Connect: the authorization code flow with PKCE, state and nonce, the ID token
 * verified by openid-client. An account is found by its linked (issuer, subject), else by a verified e-mail
 * (then linked), else made when OIDC_AUTO_SIGNUP allows; the browser then gets a one-time code that the
 * dashboard exchanges for an access token (`completeSingleSignOn`), so no token travels in a URL.
 */
export class OidcService {
  private readonly client: OidcProviderClient | null;
  private readonly accounts: OidcAccounts;

  constructor(
    private readonly data: Transactions,
    private readonly logins: OidcRepository,
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly config: Pick<Config, 'oidc' | 'passwordLogin' | 'baseUrl'>,
  ) {
    this.client = config.oidc && new OidcProviderClient(config.oidc, `${config.baseUrl}${OIDC_CALLBACK_PATH}`);
    this.accounts = new OidcAccounts(logins, users, auth, config.oidc?.autoSignup ?? false);
  }

  signInMethods(): SignInMethods {
    return {
      singleSignOn: this.client !== null,
      singleSignOnUrl: this.client && `${this.config.baseUrl}${OIDC_LOGIN_PATH}`,
      passwordLogin: this.config.passwordLogin,
    };
  }

  /** A new login: the provider's authorization URL to send the browser to. */
  async start(): Promise<URL> {
    const { openId, configuration, redirectUri } = await this.provider();
    const [state, nonce, verifier] = [openId.randomState(), openId.randomNonce(), openId.randomPKCECodeVerifier()];
    await this.logins.saveLogin(sha256Hex(state), { code_verifier: verifier, nonce }, LOGIN_TTL_SECONDS);
    return openId.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.config.oidc!.scopes,
      state,
      nonce,
      code_challenge: await openId.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * The provider's answer at the callback (its query string), checked and exchanged: a one-time code for the
   * dashboard.
   */
  async finish(query: string): Promise<string> {
    const provider = await this.provider();
    const callback = new URL(provider.redirectUri);
    callback.search = query;
    const state = callback.searchParams.get('state');
    const login = state === null ? null : await this.logins.takeLogin(sha256Hex(state));
    if (!login)
      throw new SignOnRefusal(
        'BAD_USER_INPUT',
        'This sign-in is unknown, expired or already used: start it again',
        'expired',
      );
    const { openId, configuration } = provider;
    let profile: Profile;
    try {
      const tokens = await openId.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: state!,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      profile =
        claims.email === undefined
          ? { ...claims, ...(await openId.fetchUserInfo(configuration, tokens.access_token, claims.sub)) }
          : claims;
    } catch (error) {
      throw new SignOnRefusal(
        'UNAUTHENTICATED',
        `The identity provider's answer was refused: ${(error as Error).message}`,
        'refused',
      );
    }
    const user = await this.data.transaction(() =>
      this.accounts.accountOf(configuration.serverMetadata().issuer, profile),
    );
    const code = randomSecret(32);
    await this.logins.saveSignInCode(sha256Hex(code), user.id, CODE_TTL_SECONDS);
    return code;
  }

  /** Exchanges a one-time code for a session of its account, signed in from `device` (a User-Agent). */
  async complete(code: string, device: string | undefined): Promise<Session> {
    const userId = await this.logins.takeSignInCode(sha256Hex(code));
    const user = userId === null ? null : await this.users.byId(userId);
    if (!user || user.status !== 1) throw AppError.unauthenticated('This sign-in code is unknown, expired or used');
    return { user, token: await this.auth.issueSession(user.id, device) };
  }

  private provider(): Promise<OidcProvider> {
    if (!this.client) throw new SignOnRefusal('NOT_FOUND', 'Single sign-on is not set up on this server', 'not-set-up');
    return this.client.provider();
  }
}
