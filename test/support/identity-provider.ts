import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test's provider says about the person signing in. */
export interface TestIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** The parts of oidc-provider (an ES module without types) these tests use. */
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ params: Record<string, unknown> }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: object,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: new (fields: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };
}
type ProviderClass = new (issuer: string, configuration: object) => Provider;

export interface TestIdentityProvider {
  issuer: string;
  /** Who the next sign-in at this provider is (no form: its interactions log this identity in at once). */
  signInAs(identity: TestIdentity): void;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on a free port of this process, with one confidential client.
 * Its login and consent interactions finish at once as the identity the test chose, so a sign-in runs with
 * no browser: redirects followed with fetch. Claims come from the userinfo endpoint (oidc-provider keeps
 * scope claims out of an ID token issued beside an access token, as many providers do).
 */
export async function startIdentityProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<TestIdentityProvider> {
  const identities = new Map<string, TestIdentity>();
  let next: TestIdentity | null = null;
  let provider: Provider | null = null;
  const server = createServer((req, res) => {
    const handle = req.url?.startsWith('/interaction/') ? finishInteraction(req, res) : provider!.callback()(req, res);
    Promise.resolve(handle).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  const finishInteraction = async (req: IncomingMessage, res: ServerResponse) => {
    const { params } = await provider!.interactionDetails(req, res);
    if (!next) throw new Error('signInAs() names no one to sign in');
    const grant = new provider!.Grant({ accountId: next.sub, clientId: String(params.client_id) });
    grant.addOIDCScope(String(params.scope));
    const result = { login: { accountId: next.sub }, consent: { grantId: await grant.save() } };
    await provider!.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Quiet while it loads and starts: it warns that Node 20 is not among its supported runtimes (it runs the
  // flows these tests use) and that its storage is in memory (as a test's should be).
  const warn = console.warn;
  console.warn = () => undefined;
  const Provider = jest.requireActual<{ default: ProviderClass }>('oidc-provider').default;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx: unknown, sub: string) => {
      const identity = identities.get(sub);
      return identity && { accountId: sub, claims: () => identity };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    // Set, so that it does not print a notice about each default.
    ttl: { AuthorizationCode: 60, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, Interaction: 600 },
    cookies: { keys: ['a test provider cookie key'] },
    jwks: {
      keys: [
        { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig' },
      ],
    },
  });
  console.warn = warn;

  return {
    issuer,
    signInAs(identity) {
      identities.set(identity.sub, identity);
      next = identity;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookie jar and redirects, for fetch. */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  async get(url: string | URL): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const expired = attributes.some((attribute) => /^\s*expires=.*1970/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  }

  /** Follows redirects from `url` until one leads to `origin`: answers that address, not fetched. */
  async followUntil(url: string | URL, origin: string): Promise<URL> {
    let at = new URL(url);
    for (let hop = 0; hop < 10; hop++) {
      const response = await this.get(at);
      const location = response.headers.get('location');
      if (!location) throw new Error(`${at.href} answered ${response.status} ${await response.text()}`);
      at = new URL(location, at);
      if (at.origin === origin) return at;
    }
    throw new Error(`no redirect to ${origin} within 10 hops`);
  }
}
