import type { Browser, Page } from 'playwright-core';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { createSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/**
 * Issue 43's Lists screen in Chromium: folders (with a colour), tags, payment methods and categories made,
 * renamed and deleted (asked first, a cancelled confirmation deleting nothing), the built-in categories
 * read-only, and what is made offered at once by the record form.
 */
describeInBrowser('the dashboard’s lists in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let user: SignedUpUser;
  /** What each confirmation asked, and whether the next one is accepted. */
  const confirmations: string[] = [];
  let acceptNext = true;

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await signUp(testApp);
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
    page.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void (acceptNext ? dialog.accept() : dialog.dismiss());
    });
    await page.goto(`${testApp.baseUrl}/#/lists`);
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lists' }).waitFor();
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
  const names = (title: string) => page.getByRole('list', { name: title }).locator('.name').allTextContents();
  const lists = () =>
    graphqlData(testApp, user.token, '{ folders { name color } tags { name } paymentModes { name } }');

  it('says each list is empty and adds to each', () =>
    step(page, 'lists-add', async () => {
      await page.getByText('No tags yet: add the first below.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      const folder = page.getByRole('form', { name: 'Add a folder' });
      await folder.getByLabel('Name').fill('Streaming');
      await folder.getByLabel('Colour').fill('#ff8800');
      await folder.getByRole('button', { name: 'Add folder' }).click();
      await status('Added the folder “Streaming”');
      for (const [noun, name] of [
        ['tag', 'Shared'],
        ['payment method', 'Visa 1234'],
        ['category', 'Cloud storage'],
      ]) {
        const form = page.getByRole('form', { name: `Add a ${noun}` });
        await form.getByLabel('Name').fill(name);
        await form.getByRole('button', { name: `Add ${noun}` }).click();
        await status(`Added the ${noun} “${name}”`);
      }
      expect(await names('Folders')).toEqual(['Streaming']);
      expect(await names('Tags')).toEqual(['Shared']);
      expect(await names('Payment methods')).toEqual(['Visa 1234']);
      expect(await names('Categories')).toContain('Cloud storage');
      expect(await lists()).toEqual({
        folders: [{ name: 'Streaming', color: '#ff8800' }],
        tags: [{ name: 'Shared' }],
        paymentModes: [{ name: 'Visa 1234' }],
      });
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('refuses an empty or duplicate name with the server’s message, adding nothing', () =>
    step(page, 'lists-refused', async () => {
      const form = page.getByRole('form', { name: 'Add a tag' });
      await form.getByLabel('Name').fill('Shared');
      await form.getByRole('button', { name: 'Add tag' }).click();
      await page.getByRole('alert').waitFor();
      expect(await names('Tags')).toEqual(['Shared']);
    }));

  it('renames and recolours in place', () =>
    step(page, 'lists-rename', async () => {
      await page.getByRole('button', { name: 'Rename Streaming' }).click();
      const edit = page.getByRole('form', { name: 'Edit Streaming' });
      await edit.getByLabel('Name').fill('Video');
      await edit.getByLabel('Colour').fill('#0088ff');
      expect(await accessibilityProblems(page)).toEqual([]);
      await edit.getByRole('button', { name: 'Save' }).click();
      await status('Saved the folder “Video”');
      expect((await lists()).folders).toEqual([{ name: 'Video', color: '#0088ff' }]);
    }));

  it('keeps the built-in categories read-only', async () => {
    const builtIn = page
      .getByRole('list', { name: 'Categories' })
      .getByRole('listitem')
      .filter({ hasText: 'Built in' });
    expect(await builtIn.count()).toBeGreaterThan(0);
    expect(await builtIn.first().getByRole('button').count()).toBe(0);
  });

  it('deletes only when the confirmation naming it is accepted', () =>
    step(page, 'lists-delete', async () => {
      acceptNext = false;
      await page.getByRole('button', { name: 'Delete Visa 1234' }).click();
      expect(confirmations.at(-1)).toBe('Delete the payment method “Visa 1234”? Records that use it keep the rest.');
      expect((await lists()).paymentModes).toEqual([{ name: 'Visa 1234' }]);
      acceptNext = true;
      await page.getByRole('button', { name: 'Delete Visa 1234' }).click();
      await status('Deleted the payment method “Visa 1234”');
      await page.getByText('No payment methods yet: add the first below.').waitFor();
      expect((await lists()).paymentModes).toEqual([]);
    }));

  it('offers what was made on the records screen at once', () =>
    step(page, 'lists-in-records', async () => {
      await page
        .getByRole('navigation', { name: 'Screens' })
        .getByRole('link', { name: 'Subscriptions', exact: true })
        .click();
      const folder = page.getByLabel('Folder', { exact: true });
      await folder.locator('option', { hasText: 'Video' }).waitFor({ state: 'attached' });
      expect(await folder.locator('option').allTextContents()).toEqual(['Any folder', 'Video']);
    }));

  it('lists every record past a page of 100 where a screen offers them all', () =>
    step(page, 'lists-uncapped', async () => {
      const count = 105;
      for (let made = 0; made < count; made += 15)
        await Promise.all(Array.from({ length: 15 }, () => createSubscription(testApp, user.token)));
      const screens = page.getByRole('navigation', { name: 'Screens' });
      await screens.getByRole('link', { name: 'Payments' }).click();
      const choices = page.getByRole('form', { name: 'Change a price' }).getByLabel('Record').locator('option');
      await until(async () => (await choices.count()) === count, 'every recurring record in the price form');

      await screens.getByRole('link', { name: 'Household' }).click();
      const make = page.getByRole('form', { name: 'Make a household' });
      await make.getByLabel('Household name').fill('Home');
      await make.getByRole('button').click();
      const sharing = page.getByRole('table', { name: 'Sharing' }).locator('tbody tr');
      await until(async () => (await sharing.count()) === count, 'every record in the sharing table');
    }));
});
