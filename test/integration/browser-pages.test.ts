import type { Browser } from 'playwright-core';

import { describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { startTestApp, type TestApp } from '../support/test-app';

describeInBrowser('pages rendered in Chromium with nothing loaded from outside this server', () => {
  let testApp: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    testApp = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  it('/docs renders the API reference from the served document', async () => {
    const { page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl);
    await step(page, 'docs', async () => {
      await page.goto(`${testApp.baseUrl}/docs`);
      await page.getByRole('heading', { name: 'Subledger REST API' }).waitFor({ timeout: 30_000 });
      await page.getByText('Subscriptions', { exact: true }).first().click();
      await page.getByText('Create a subscription or lifetime purchase').first().waitFor();
    });
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  it('/graphql renders GraphiQL, which reads the schema and runs a query', async () => {
    const { page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl);
    await step(page, 'graphiql', async () => {
      await page.goto(`${testApp.baseUrl}/graphql`);
      await page.locator('.graphiql-container').waitFor({ timeout: 30_000 });
      // The schema arrived: the documentation explorer lists the root types.
      await page.getByRole('button', { name: /documentation explorer/i }).click();
      await page.getByText('Query', { exact: true }).first().waitFor();
      await page.locator('.graphiql-query-editor .CodeMirror').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{ __typename }');
      await page.getByRole('button', { name: /execute query/i }).click();
      await page.locator('.graphiql-response').getByText('"Query"').waitFor();
    });
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });
});
