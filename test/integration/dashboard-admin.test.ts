import type { Browser, Page } from 'playwright-core';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 44's admin screens, driven in Chromium: the accounts (disable, enable, delete after the e-mail is typed
 * again), the sign-up mode, invitations (a link shown once, used, revoked) and the audit log; and the screen
 * kept from an account that is not an admin.
 */
describeInBrowser('the dashboard’s admin screens in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let admin: SignedUpUser;
  let bea: SignedUpUser;
  /** What each confirmation asked; every one is accepted. */
  const confirmations: string[] = [];

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await signUp(testApp, 'Ada Admin');
    bea = await signUp(testApp, 'Bea');
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
  const screens = () => page.getByRole('navigation', { name: 'Screens' });
  const logIn = async (user: SignedUpUser) => {
    // The form, not the page: the admin screen has an "E-mail address" field of its own until it is gone.
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Log in' }).click();
    await screens().waitFor();
  };
  const restStatus = async (token: string) =>
    (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${token}`)).status;
  const accountRow = (email: string) =>
    page.getByRole('table', { name: 'Accounts' }).getByRole('row').filter({ hasText: email });
  const auditActions = async () =>
    page.getByRole('table', { name: 'Audit log' }).getByRole('rowheader').allTextContents();

  it('offers the admin screen to the admin, listing every account', () =>
    step(page, 'admin-accounts', async () => {
      await page.goto(`${testApp.baseUrl}/`);
      await logIn(admin);
      await screens().getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
      await page.getByRole('heading', { name: 'Accounts (2)' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await accountRow(admin.email).getByRole('rowheader').textContent()).toBe(`${admin.email} Admin`);
      expect(await accountRow(bea.email).getByRole('cell').allTextContents()).toEqual([
        'Bea',
        expect.any(String),
        expect.any(String),
        '0',
        'Off',
        'Active',
        expect.stringContaining('Disable'),
      ]);
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('disables an account (its token dies) and enables it again', () =>
    step(page, 'admin-disable', async () => {
      await page.getByRole('button', { name: `Disable ${bea.email}` }).click();
      await status(`Account disabled: ${bea.email}`);
      expect(confirmations.at(-1)).toBe(`Disable ${bea.email}? It is signed out everywhere and cannot sign in.`);
      expect(await accountRow(bea.email).getByRole('cell').nth(5).textContent()).toBe('Disabled');
      expect(await restStatus(bea.token)).toBe(401);

      await page.getByRole('button', { name: `Enable ${bea.email}` }).click();
      await status(`Account enabled: ${bea.email}`);
      expect(await accountRow(bea.email).getByRole('cell').nth(5).textContent()).toBe('Active');
      const login = await testApp.http
        .post('/api/v1/auth/login')
        .field('email', bea.email)
        .field('password', bea.password);
      expect(login.status).toBe(201);
      bea.token = login.body.token;
    }));

  it('switches sign-up to invite-only at once', () =>
    step(page, 'admin-sign-up', async () => {
      const form = page.getByRole('form', { name: 'Sign-up' });
      expect(await form.getByLabel('Who may sign up').inputValue()).toBe('OPEN');
      await form.getByLabel('Who may sign up').selectOption('INVITE_ONLY');
      await form.getByRole('button', { name: 'Save' }).click();
      await status('Sign-up is now invite-only');
      expect((await graphqlData(testApp, null, '{ instance { signUpMode } }')).instance.signUpMode).toBe('INVITE_ONLY');
      const refused = await graphql(
        testApp,
        null,
        'mutation($input: SignUpInput!) { signUp(input: $input) { token userErrors { field } } }',
        { input: { email: 'walk-in@example.com', password: 'correct horse battery', name: 'Walk-in' } },
      );
      expect(refused.body.data?.signUp?.token ?? null).toBeNull();
    }));

  it('makes an invitation link shown once, which signs one account up; revokes another', () =>
    step(page, 'admin-invitations', async () => {
      const form = page.getByRole('form', { name: 'Invite' });
      await form.getByRole('button', { name: 'Invite' }).click();
      await status('Invitation made');
      const link = (await page.getByLabel('Invitation link').textContent())!;
      // BASE_URL's sign-up page, the code in the fragment (never sent to a server).
      expect(link).toMatch(/^http:\/\/localhost:3000\/#invitation=[\w-]+$/);
      const invitations = page.getByRole('table', { name: 'Invitations' });
      const forAnyone = invitations.getByRole('row').filter({ hasText: 'Anyone with the link' });
      expect(await forAnyone.getByRole('cell').nth(2).textContent()).toBe('Not used yet');
      expect(await accessibilityProblems(page)).toEqual([]);

      const invitationCode = decodeURIComponent(new URL(link).hash.slice('#invitation='.length));
      const signedUp = await graphqlData(
        testApp,
        null,
        'mutation($input: SignUpInput!) { signUp(input: $input) { token userErrors { message } } }',
        { input: { email: 'invited@example.com', password: 'correct horse battery', name: 'Invited', invitationCode } },
      );
      expect(signedUp.signUp).toEqual({ token: expect.any(String), userErrors: [] });

      await form.getByLabel('E-mail address').fill('carl@example.com');
      await form.getByRole('button', { name: 'Invite' }).click();
      await status('Invitation made');
      const forCarl = invitations.getByRole('row').filter({ hasText: 'carl@example.com' });
      await forCarl.getByRole('button', { name: 'Revoke the invitation for carl@example.com' }).click();
      await status('Invitation revoked');
      expect(confirmations.at(-1)).toBe('Revoke this invitation? Its link stops working.');
      expect(await forCarl.getByRole('cell').nth(2).textContent()).toBe('Revoked');
      // Made after the first was used: the table shows the use.
      expect(await forAnyone.getByRole('cell').nth(2).textContent()).toBe('Used');
      expect(await page.getByLabel('Invitation link').count()).toBe(0);
    }));

  it('deletes an account only once its e-mail is typed again', () =>
    step(page, 'admin-delete', async () => {
      await page.getByRole('button', { name: `Delete ${bea.email}` }).click();
      const confirm = page.getByRole('form', { name: 'Delete account' });
      await confirm.getByLabel('Type its e-mail address to confirm').fill('someone.else@example.com');
      await confirm.getByRole('button', { name: 'Delete the account and its data' }).click();
      await page.getByRole('alert').waitFor();
      expect(await accountRow(bea.email).count()).toBe(1);
      expect(await restStatus(bea.token)).toBe(200);
      expect(await accessibilityProblems(page)).toEqual([]);

      await confirm.getByLabel('Type its e-mail address to confirm').fill(bea.email.toUpperCase());
      await confirm.getByRole('button', { name: 'Delete the account and its data' }).click();
      await status(`Account deleted: ${bea.email}`);
      expect(await confirm.count()).toBe(0);
      expect(await accountRow(bea.email).count()).toBe(0);
      await page.getByRole('heading', { name: 'Accounts (2)' }).waitFor();
      expect(await restStatus(bea.token)).toBe(401);
    }));

  it('shows what the admin did in the audit log, newest first', () =>
    step(page, 'admin-audit-log', async () => {
      await page.getByRole('row').filter({ hasText: 'Deleted an account' }).waitFor();
      expect(await auditActions()).toEqual([
        'Deleted an account',
        'Revoked an invitation',
        'Invited',
        'Invited',
        'Set sign-up',
        'Enabled an account',
        'Disabled an account',
      ]);
      const deleted = page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1);
      expect((await deleted.getByRole('cell').allTextContents()).slice(1, 3)).toEqual([admin.email, bea.email]);
      const modeSet = page.getByRole('row').filter({ hasText: 'Set sign-up' });
      expect(await modeSet.getByRole('cell').last().textContent()).toBe('OPEN → INVITE_ONLY');
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('keeps the screen from an account that is not an admin', () =>
    step(page, 'admin-refused', async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      const invited = { id: 0, email: 'invited@example.com', password: 'correct horse battery', token: '' };
      await logIn(invited);
      expect(await screens().getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await page.goto(`${testApp.baseUrl}/#/admin`);
      await page.getByRole('alert').filter({ hasText: 'Only an admin of this instance sees this screen.' }).waitFor();
      expect(await page.getByRole('table', { name: 'Accounts' }).count()).toBe(0);
    }));
});
