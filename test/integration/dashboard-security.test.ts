import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { runCli } from '../support/service-process';
import { type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 44's Security screen and sign-in steps, driven in Chromium: a password change that signs the other
 * sessions out, two-factor enrolment and the login's second step, sessions and access tokens revoked, and a
 * reset link's page.
 */
describeInBrowser('the dashboard’s security in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let user: SignedUpUser;
  /** What each confirmation asked; every one is accepted. */
  const confirmations: string[] = [];
  // The server's clock, a 30-second step on for each code: a TOTP code works once.
  let now = new Date();
  const codeAtNextStep = (secret: string) => {
    now = new Date(now.getTime() + 30_000);
    return generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
  };
  let secret = '';
  let password = '';

  beforeAll(async () => {
    testApp = await startTestApp({ NOTIFY_SECRET_KEY: 'dashboard-security-test-key-0123456789' }, { clock: () => now });
    user = await signUp(testApp);
    password = user.password;
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
    page.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  const status = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  /** The REST status a token gets: 200 while it is live, 401 once revoked. */
  const restStatus = async (token: string) =>
    (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${token}`)).status;
  /** A further session of the user's (two-factor on), as a REST client on a named device makes one. */
  const restSession = async (device: string) => {
    const response = await testApp.http
      .post('/api/v1/auth/login')
      .set('user-agent', device)
      .field('email', user.email)
      .field('password', password)
      .field('code', await codeAtNextStep(secret));
    expect(response.status).toBe(201);
    return response.body.token as string;
  };
  const logIn = async (code?: () => Promise<string>) => {
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    if (code) {
      await status('Enter the code from your authenticator app');
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByLabel('Two-factor code').fill(await code());
      await page.getByRole('button', { name: 'Log in' }).click();
    }
    // Signed in: at the screen the address names.
    await page.getByRole('navigation', { name: 'Screens' }).waitFor();
  };
  const openSecurity = async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.waitForLoadState('networkidle');
  };

  it('changes the password, and the other sessions get 401', () =>
    step(page, 'security-password', async () => {
      await page.goto(`${testApp.baseUrl}/`);
      await logIn();
      await openSecurity();
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await restStatus(user.token)).toBe(200);
      const form = page.getByRole('form', { name: 'Change password' });
      await form.getByLabel('Current password').fill(password);
      password = 'a brand new passphrase';
      await form.getByLabel('New password').fill(password);
      expect(await form.getByLabel('Sign out my other sessions').isChecked()).toBe(true);
      await form.getByRole('button', { name: 'Change password' }).click();
      await status('Password changed; your other sessions are signed out');
      expect(await restStatus(user.token)).toBe(401);
    }));

  it('turns two-factor on with the shown key and a code, and shows the recovery codes once', () =>
    step(page, 'security-two-factor', async () => {
      await page.getByRole('button', { name: 'Turn on' }).click();
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      secret = (await page.getByLabel('Key for manual entry').textContent())!;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByLabel('Code', { exact: true }).fill(await codeAtNextStep(secret));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await status('Two-factor is on');
      const codes = page.getByRole('region', { name: 'Recovery codes' });
      await codes.getByText('Save these recovery codes now.').waitFor();
      expect(await codes.getByRole('listitem').allTextContents()).toEqual(
        Array.from({ length: 10 }, () => expect.stringMatching(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/)),
      );
      await page.getByText('Recovery codes left: 10.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await codes.getByRole('button', { name: 'I saved them' }).click();
      expect(await codes.count()).toBe(0);
    }));

  it('asks the two-factor code at the next login', () =>
    step(page, 'security-login-code', async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await logIn(() => codeAtNextStep(secret));
    }));

  it('lists the sessions with this device, and signs another one out', () =>
    step(page, 'security-sessions', async () => {
      const phone = await restSession('Test phone 1.0');
      // The login left the page at #/security, listed before this session was made.
      await page.reload();
      await openSecurity();
      const sessions = page.getByRole('table', { name: 'Sessions' });
      const thisDevice = sessions.getByRole('row').filter({ hasText: 'This device' });
      expect(await thisDevice.getByRole('rowheader').textContent()).toMatch(/^Chrome \d+ on Linux$/);
      await sessions.getByRole('rowheader', { name: 'Test phone 1.0' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('button', { name: 'Sign out Test phone 1.0' }).click();
      await status('Session signed out');
      expect(confirmations.at(-1)).toBe('Sign out the session on “Test phone 1.0”?');
      expect(await sessions.getByRole('rowheader', { name: 'Test phone 1.0' }).count()).toBe(0);
      expect(await restStatus(phone)).toBe(401);
    }));

  it('makes a read-only token shown once, lists it, and revokes it', () =>
    step(page, 'security-tokens', async () => {
      const form = page.getByRole('form', { name: 'Make an access token' });
      await form.getByLabel('Name').fill('Backup script');
      await form.getByLabel('Expires in (days)').fill('30');
      await form.getByRole('button', { name: 'Make token' }).click();
      await status('Token made: Backup script');
      const token = (await page.getByLabel('New access token').textContent())!;
      expect(token).toMatch(/^\d+\|\S+$/);
      const row = page
        .getByRole('table', { name: 'Access tokens' })
        .getByRole('row')
        .filter({ hasText: 'Backup script' });
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        'Read-only',
        expect.any(String),
        'Never',
        expect.any(String),
        expect.stringContaining('Revoke'),
      ]);
      expect(await restStatus(token)).toBe(200);
      const write = await testApp.http.post('/api/v1/subscriptions').set('authorization', `Bearer ${token}`).send({});
      expect([write.status, write.body.message]).toEqual([403, expect.stringMatching(/read-only/)]);
      expect(await accessibilityProblems(page)).toEqual([]);

      await row.getByRole('button', { name: 'Revoke Backup script' }).click();
      await status('Token revoked: Backup script');
      expect(confirmations.at(-1)).toBe('Revoke the token “Backup script”? Whatever uses it stops working.');
      expect(await row.count()).toBe(0);
      expect(await restStatus(token)).toBe(401);
    }));

  it('answers a forgotten password the same way, and a reset link’s page sets a new password', () =>
    step(page, 'security-reset', async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByRole('button', { name: 'Send a link' }).click();
      await status('If an account has this address, a link is on its way.');
      expect(await accessibilityProblems(page)).toEqual([]);

      const run = runCli(testApp.database.url, 'users:reset-password', '--email', user.email);
      expect([run.status, run.stderr]).toEqual([0, '']);
      const [, token] = /\/reset-password\?token=([A-Za-z0-9_-]+)\s*$/.exec(run.stdout) ?? [];
      await page.goto(`${testApp.baseUrl}/reset-password?token=${token}`);
      await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      password = 'the reset passphrase';
      await page.getByRole('textbox', { name: 'New password' }).fill(password);
      await page.getByRole('button', { name: 'Set password' }).click();
      await status('Password changed; log in');
      expect(new URL(page.url()).pathname).toBe('/');
      await logIn(() => codeAtNextStep(secret));
    }));

  it('makes new recovery codes, signs in with one, and turns two-factor off with a code', () =>
    step(page, 'security-two-factor-off', async () => {
      await openSecurity();
      const form = page.getByRole('form', { name: 'Two-factor code' });
      await form.getByLabel('Code', { exact: true }).fill(await codeAtNextStep(secret));
      await form.getByRole('button', { name: 'New recovery codes' }).click();
      await status('New recovery codes made');
      expect(confirmations.at(-1)).toBe('Make new recovery codes? Your current ones will stop working.');
      const codes = await page.getByRole('region', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
      expect(codes).toHaveLength(10);
      await page.getByRole('button', { name: 'I saved them' }).click();

      await page.getByRole('button', { name: 'Log out' }).click();
      await logIn(async () => codes[0]!);
      await openSecurity();
      await page.getByText('Recovery codes left: 9.').waitFor();

      await form.getByLabel('Code', { exact: true }).fill(await codeAtNextStep(secret));
      await form.getByRole('button', { name: 'Turn off' }).click();
      await status('Two-factor is off');
      expect(confirmations.at(-1)).toBe('Turn off two-factor? Signing in will ask only for your password.');
      await page.getByText('Off: signing in asks only for your password.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('button', { name: 'Log out' }).click();
      await logIn();
    }));
});
