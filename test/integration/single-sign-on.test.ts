import {
  startIdentityProvider,
  TestBrowser,
  type TestIdentity,
  type TestIdentityProvider,
} from '../support/identity-provider';
import { graphql, graphqlData, signUp, sql, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

/** The apps' public address (BASE_URL): the provider sends the browser there; the tests visit the app itself. */
const PUBLIC = 'http://subledger.test';
const CLIENT = {
  clientId: 'subledger',
  clientSecret: 'a client secret of the tests',
  redirectUri: `${PUBLIC}/auth/oidc/callback`,
};

let provider: TestIdentityProvider;
/** Single sign-on beside passwords; accounts are not made by it. */
let app: TestApp;
/** OIDC_ONLY with OIDC_AUTO_SIGNUP: no passwords; a first sign-on makes its account. */
let ssoOnly: TestApp;

beforeAll(async () => {
  provider = await startIdentityProvider(CLIENT);
  const oidc = {
    BASE_URL: PUBLIC,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
  };
  [app, ssoOnly] = await Promise.all([
    startTestApp(oidc),
    startTestApp({ ...oidc, OIDC_AUTO_SIGNUP: 'true', OIDC_ONLY: 'true' }),
  ]);
});
afterAll(async () => {
  await Promise.all([app?.close(), ssoOnly?.close()]);
  await provider?.close();
});

let subjects = 0;
const newSubject = () => `subject-${process.pid}-${++subjects}`;

/** A sign-in at the provider as `identity`, up to the callback it sends the browser to (not visited yet). */
async function atProvider(testApp: TestApp, identity: TestIdentity): Promise<URL> {
  provider.signInAs(identity);
  return new TestBrowser().followUntil(`${testApp.baseUrl}/auth/oidc/login`, PUBLIC);
}

/** The browser arriving at the app's callback (the public address leads there). */
function visit(testApp: TestApp, callback: URL): Promise<Response> {
  return fetch(`${testApp.baseUrl}${callback.pathname}${callback.search}`, { redirect: 'manual' });
}

/** The one-time code a callback handed the dashboard, in the fragment of its redirect. */
function handedCode(response: Response): string {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC}/`);
  return /^#sso-code=([A-Za-z0-9_-]{40,})$/.exec(location.hash)![1];
}

const COMPLETE =
  'mutation($input: CompleteSingleSignOnInput!) { completeSingleSignOn(input: $input) { token user { email name } userErrors { code message } } }';

async function signOn(testApp: TestApp, identity: TestIdentity) {
  const code = handedCode(await visit(testApp, await atProvider(testApp, identity)));
  return (await graphqlData(testApp, null, COMPLETE, { input: { code } })).completeSingleSignOn;
}

async function refusal(response: Response) {
  return { status: response.status, body: (await response.json()) as unknown };
}

const identitiesOf = (testApp: TestApp, subject: string) =>
  sql<{ user_id: number; issuer: string }>(testApp, 'select user_id, issuer from oidc_identities where subject = ?', [
    subject,
  ]);

describe('single sign-on (OpenID Connect) against a real provider', () => {
  it('tells the dashboard which sign-in methods there are', async () => {
    const query = '{ signInMethods { singleSignOn singleSignOnUrl passwordLogin } }';
    expect((await graphqlData(app, null, query)).signInMethods).toEqual({
      singleSignOn: true,
      singleSignOnUrl: `${PUBLIC}/auth/oidc/login`,
      passwordLogin: true,
    });
    expect((await graphqlData(ssoOnly, null, query)).signInMethods).toEqual({
      singleSignOn: true,
      singleSignOnUrl: `${PUBLIC}/auth/oidc/login`,
      passwordLogin: false,
    });
  });

  it('signs an account in by its verified e-mail, links the identity, and then finds it by the identity alone', async () => {
    const ann = await signUp(app, 'Ann Lee');
    const sub = newSubject();
    const session = await signOn(app, { sub, email: ann.email.toUpperCase(), email_verified: true });
    expect(session).toEqual({ token: expect.any(String), user: { email: ann.email, name: 'Ann Lee' }, userErrors: [] });
    expect((await graphqlData(app, session.token, '{ me { email } }')).me).toEqual({ email: ann.email });
    expect(await identitiesOf(app, sub)).toEqual([{ user_id: ann.id, issuer: provider.issuer }]);

    // The e-mail changed at the provider (and is not verified there yet): the identity still names Ann.
    const again = await signOn(app, { sub, email: uniqueEmail('elsewhere'), email_verified: false });
    expect(again.user).toEqual({ email: ann.email, name: 'Ann Lee' });
    expect(again.token).not.toBe(session.token);
  });

  it('refuses an unverified e-mail and changes nothing', async () => {
    const bob = await signUp(app, 'Bob');
    const sub = newSubject();
    const response = await visit(app, await atProvider(app, { sub, email: bob.email, email_verified: false }));
    expect(await refusal(response)).toEqual({
      status: 403,
      body: {
        status: false,
        message:
          'Your identity provider has not verified your e-mail address, so it cannot sign you in here; nothing was changed',
      },
    });
    expect(await identitiesOf(app, sub)).toEqual([]);
  });

  it('refuses an unknown e-mail without OIDC_AUTO_SIGNUP and makes no account', async () => {
    const email = uniqueEmail('stranger');
    const sub = newSubject();
    const response = await visit(app, await atProvider(app, { sub, email, email_verified: true }));
    expect(await refusal(response)).toEqual({
      status: 403,
      body: {
        status: false,
        message: 'You have no account here yet, and single sign-on does not create accounts here',
      },
    });
    expect(await sql(app, 'select id from users where email = ?', [email])).toEqual([]);
    expect(await identitiesOf(app, sub)).toEqual([]);
  });

  it('refuses a wrong or missing state, and the real one still signs in', async () => {
    const carl = await signUp(app, 'Carl');
    const callback = await atProvider(app, { sub: newSubject(), email: carl.email, email_verified: true });
    const forged = new URL(callback);
    forged.searchParams.set('state', 'a-state-this-server-never-made');
    const stateless = new URL(callback);
    stateless.searchParams.delete('state');
    for (const wrong of [forged, stateless]) {
      expect(await refusal(await visit(app, wrong))).toEqual({
        status: 400,
        body: { status: false, message: 'This sign-in is unknown, expired or already used: start it again' },
      });
    }
    const code = handedCode(await visit(app, callback));
    expect((await graphqlData(app, null, COMPLETE, { input: { code } })).completeSingleSignOn.user.email).toBe(
      carl.email,
    );
  });

  it('sends a person’s browser to the dashboard with the name of the refusal; other clients get the JSON', async () => {
    const eve = await signUp(app, 'Eve');
    const sub = newSubject();
    const callback = await atProvider(app, { sub, email: eve.email, email_verified: false });
    const forged = new URL(callback);
    forged.searchParams.set('state', 'a-state-this-server-never-made');
    const asked = (at: URL, accept: string) =>
      fetch(`${app.baseUrl}${at.pathname}${at.search}`, { redirect: 'manual', headers: { accept } });
    // What Chromium asks for when it navigates.
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
    for (const [at, reason] of [
      [callback, 'unverified'],
      [forged, 'expired'],
    ] as const) {
      const answer = await asked(at, browser);
      expect([answer.status, answer.headers.get('location')]).toEqual([303, `${PUBLIC}/#sso-error=${reason}`]);
    }
    expect((await refusal(await asked(forged, 'application/json'))).status).toBe(400);
    expect(await identitiesOf(app, sub)).toEqual([]);
  });

  it('refuses a replayed callback, a replayed authorization code and a replayed one-time code', async () => {
    const dee = await signUp(app, 'Dee');
    const identity = { sub: newSubject(), email: dee.email, email_verified: true };
    const callback = await atProvider(app, identity);
    const code = handedCode(await visit(app, callback));
    expect((await refusal(await visit(app, callback))).status).toBe(400);

    // The used authorization code under a fresh login's state: the provider refuses it.
    const fresh = await atProvider(app, identity);
    const replayed = new URL(fresh);
    replayed.searchParams.set('code', callback.searchParams.get('code')!);
    const answer = await refusal(await visit(app, replayed));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      status: false,
      message: expect.stringMatching(/^The identity provider's answer was refused: /),
    });

    expect((await graphqlData(app, null, COMPLETE, { input: { code } })).completeSingleSignOn.user.email).toBe(
      dee.email,
    );
    const again = await graphql(app, null, COMPLETE, { input: { code } });
    expect(again.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'UNAUTHENTICATED',
    ]);
    expect(again.body.data).toBeNull();
  });
});

describe('OIDC_ONLY with OIDC_AUTO_SIGNUP', () => {
  it('makes the account of a first sign-on, named by the provider', async () => {
    const email = uniqueEmail('newcomer');
    const session = await signOn(ssoOnly, { sub: newSubject(), email, email_verified: true, name: 'Nia Newcomer' });
    expect(session.user).toEqual({ email, name: 'Nia Newcomer' });
    expect((await graphqlData(ssoOnly, session.token, '{ me { email name } }')).me).toEqual({
      email,
      name: 'Nia Newcomer',
    });
  });

  it('refuses password login and sign-up on GraphQL and REST, saying sign-in is by single sign-on', async () => {
    const email = uniqueEmail('newcomer');
    await signOn(ssoOnly, { sub: newSubject(), email, email_verified: true });
    const message = 'Sign-in is by single sign-on on this server (password login is turned off)';
    const login = await graphql(
      ssoOnly,
      null,
      'mutation { login(input: {email: "x@example.com", password: "whatever it is"}) { token userErrors { code message } } }',
    );
    expect(login.body.data.login).toEqual({ token: null, userErrors: [{ code: 'FORBIDDEN', message }] });
    const signUpAnswer = await graphql(
      ssoOnly,
      null,
      `mutation { signUp(input: {email: "${uniqueEmail()}", password: "long enough", name: "X"}) { token userErrors { code message } } }`,
    );
    expect(signUpAnswer.body.data.signUp).toEqual({ token: null, userErrors: [{ code: 'FORBIDDEN', message }] });
    const rest = await ssoOnly.http
      .post('/api/v1/auth/login')
      .field('email', email)
      .field('password', 'anything at all');
    expect([rest.status, rest.body]).toEqual([403, { status: false, message }]);
  });
});
