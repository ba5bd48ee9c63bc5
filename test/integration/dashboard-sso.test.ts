import type { Browser, Page } from 'playwright-core';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { startIdentityProvider, type TestIdentityProvider } from '../support/identity-provider';
import { graphqlData, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

/**
 * The apps' public address (BASE_URL, which the provider knows the callback by). The browser opens it and the
 * test answers it from the app itself, as a reverse proxy would.
 */
const PUBLIC = 'http://subledger.test';
const CLIENT = {
  clientId: 'subledger',
  clientSecret: 'a client secret of the tests',
  redirectUri: `${PUBLIC}/auth/oidc/callback`,
};

/** Single sign-on through the dashboard, against a real provider in this process (the browser's only other origin). */
describeInBrowser('single sign-on in the dashboard', () => {
  let provider: TestIdentityProvider;
  /** Single sign-on beside passwords; accounts are not made by it. */
  let app: TestApp;
  /** OIDC_ONLY with OIDC_AUTO_SIGNUP. */
  let ssoOnly: TestApp;
  let browser: Browser;
  /** Each page's requests to other origins and CSP refusals, checked after each test. */
  let opened: Array<{ outside: string[]; refusedByPolicy: string[] }> = [];

  beforeAll(async () => {
    provider = await startIdentityProvider(CLIENT);
    const oidc = {
      BASE_URL: PUBLIC,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    };
    [app, ssoOnly, browser] = await Promise.all([
      startTestApp(oidc),
      startTestApp({ ...oidc, OIDC_AUTO_SIGNUP: 'true', OIDC_ONLY: 'true' }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.close(), ssoOnly?.close()]);
    await provider?.close();
  });
  afterEach(() => {
    for (const { outside, refusedByPolicy } of opened) {
      expect(outside).toEqual([]);
      expect(refusedByPolicy).toEqual([]);
    }
    opened = [];
  });

  /** A page at the public address answered by `testApp`, which may reach nothing else but the provider. */
  async function publicPage(testApp: TestApp): Promise<Page> {
    const { page, outside, refusedByPolicy } = await offlinePage(browser, PUBLIC, [provider.issuer]);
    opened.push({ outside, refusedByPolicy });
    // Routed after offlinePage's guard, so asked first.
    await page.route(`${PUBLIC}/**`, async (route) => {
      const { pathname, search } = new URL(route.request().url());
      try {
        const response = await route.fetch({ url: `${testApp.baseUrl}${pathname}${search}`, maxRedirects: 0 });
        await route.fulfill({ response });
      } catch (error) {
        // A request the page gave up while it was answered (a navigation away, an aborted read) has nobody
        // left to answer; any other failure is the test's.
        if (!String(error).includes('Request context disposed')) throw error;
      }
    });
    return page;
  }

  const ssoLink = (page: Page) => page.getByRole('link', { name: 'Sign in with single sign-on' });
  const stored = (page: Page, storage: 'sessionStorage' | 'localStorage') =>
    page.evaluate(`${storage}.getItem("subledger.token")`) as Promise<string | null>;
  let subjects = 0;
  const newSubject = () => `dashboard-subject-${process.pid}-${++subjects}`;

  it('shows the single sign-on button beside the password form, and axe finds nothing', async () => {
    const page = await publicPage(app);
    await step(page, 'sso-sign-in-screen', async () => {
      await page.goto(`${PUBLIC}/`);
      await ssoLink(page).waitFor();
      expect(await ssoLink(page).getAttribute('href')).toBe(`${PUBLIC}/auth/oidc/login`);
      await page.getByRole('form', { name: 'Log in' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
    });
  });

  it('signs in through the provider, lands on the dashboard for this tab, and the code is gone from the address', async () => {
    const ann = await signUp(app, 'Ann');
    provider.signInAs({ sub: newSubject(), email: ann.email, email_verified: true });
    const page = await publicPage(app);
    const visited: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) visited.push(request.url());
    });
    await step(page, 'sso-sign-in', async () => {
      await page.goto(`${PUBLIC}/`);
      const before = (await page.evaluate('history.length')) as number;
      await ssoLink(page).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      // One entry more, the return, with its code replaced (the provider's stops were redirects).
      expect(page.url()).toBe(`${PUBLIC}/`);
      expect(await page.evaluate('history.length')).toBe(before + 1);
      // By way of the provider and the callback.
      expect(visited.some((url) => url.startsWith(`${provider.issuer}/`))).toBe(true);
      expect(visited.some((url) => url.startsWith(`${PUBLIC}/auth/oidc/callback?`))).toBe(true);
      const token = await stored(page, 'sessionStorage');
      expect(await stored(page, 'localStorage')).toBeNull();
      expect((await graphqlData(app, token, '{ me { email } }')).me).toEqual({ email: ann.email });
    });
  });

  it('keeps the sign-in on this device when it was ticked before leaving for the provider', async () => {
    const bea = await signUp(app, 'Bea');
    provider.signInAs({ sub: newSubject(), email: bea.email, email_verified: true });
    const page = await publicPage(app);
    await step(page, 'sso-keep-signed-in', async () => {
      await page.goto(`${PUBLIC}/`);
      await page.getByLabel('Keep me signed in on this device').check();
      await ssoLink(page).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const token = await stored(page, 'localStorage');
      expect(await stored(page, 'sessionStorage')).toBeNull();
      expect((await graphqlData(app, token, '{ me { email } }')).me).toEqual({ email: bea.email });
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
    });
  });

  it('says in words why the provider’s sign-in was refused, and a used or unknown code, on the sign-in screen', async () => {
    const cy = await signUp(app, 'Cy');
    provider.signInAs({ sub: newSubject(), email: cy.email, email_verified: false });
    const page = await publicPage(app);
    await step(page, 'sso-refused', async () => {
      await page.goto(`${PUBLIC}/`);
      await ssoLink(page).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Single sign-on failed: Your identity provider has not verified your e-mail address' })
        .waitFor();
      expect(page.url()).toBe(`${PUBLIC}/`);
      await page.getByRole('form', { name: 'Log in' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      // Loaded anew, as the callback's redirect from another origin is.
      await page.goto('about:blank');
      await page.goto(`${PUBLIC}/#sso-code=a-code-this-server-never-handed-out`);
      await page
        .getByRole('alert')
        .filter({ hasText: 'Single sign-on failed: That sign-in took too long or was already used' })
        .waitFor();
      expect(page.url()).toBe(`${PUBLIC}/`);
      expect(await stored(page, 'sessionStorage')).toBeNull();
    });
  });

  it('with OIDC_ONLY, offers single sign-on alone, and a first sign-on makes the account', async () => {
    const email = uniqueEmail('newcomer');
    provider.signInAs({ sub: newSubject(), email, email_verified: true, name: 'Nia Newcomer' });
    const page = await publicPage(ssoOnly);
    await step(page, 'sso-only', async () => {
      await page.goto(`${PUBLIC}/`);
      await ssoLink(page).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Log in' }).waitFor();
      expect(await page.getByRole('form').count()).toBe(0);
      expect(await page.getByLabel('Password').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Create an account' }).count()).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      await ssoLink(page).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const token = await stored(page, 'sessionStorage');
      expect((await graphqlData(ssoOnly, token, '{ me { email name } }')).me).toEqual({ email, name: 'Nia Newcomer' });
    });
  });
});
