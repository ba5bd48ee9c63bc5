import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';

import { describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/** The build's outputs (scripts/dashboard-bundle.mjs): which chunk bundles which sources. */
const { firstScreen, metafile } = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../dist/dashboard-meta.json'), 'utf8'),
) as {
  firstScreen: string[];
  metafile: { outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown> }> };
};
/** The address of each chunk whose sources include `source`. */
const chunksWith = (source: string) =>
  Object.entries(metafile.outputs)
    .filter(
      ([output, { inputs }]) => output.endsWith('.js') && Object.keys(inputs).some((input) => input.includes(source)),
    )
    .map(([output]) => `/${path.posix.relative('dist', output)}`);

/**
 * Issue 43's installable dashboard in Chromium: a valid web app manifest with its icons, a service worker that
 * keeps the shell (never an API answer) so a reload without a network still paints the dashboard with an
 * offline notice, nothing fetched from another origin, and a later screen's code fetched only when it opens.
 */
describeInBrowser('the dashboard as an installable app in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let user: SignedUpUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await signUp(testApp);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  /** A page of its own context, signed in on the Overview; with every address it requested, in order. */
  async function signedIn(): Promise<{
    page: Page;
    outside: string[];
    refusedByPolicy: string[];
    requested: string[];
  }> {
    const opened = await offlinePage(browser, testApp.baseUrl);
    const requested: string[] = [];
    opened.page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await opened.page.goto(`${testApp.baseUrl}/`);
    const form = opened.page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Log in' }).click();
    await opened.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    return { ...opened, requested };
  }

  it('links a web app manifest Chromium finds installable, with PNG icons of their stated sizes', async () => {
    const { page, outside, refusedByPolicy } = await signedIn();
    await step(page, 'app-manifest', async () => {
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe('/dashboard/app.webmanifest');
      const response = await fetch(`${testApp.baseUrl}${href}`);
      expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
      const manifest = (await response.json()) as Record<string, any>;
      expect(manifest).toMatchObject({
        name: 'Subledger',
        short_name: 'Subledger',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
        background_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      });
      expect(manifest.icons.map(({ sizes, purpose }: Record<string, string>) => `${sizes} ${purpose}`)).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
      for (const icon of manifest.icons as Array<Record<string, string>>) {
        const image = await fetch(`${testApp.baseUrl}${icon.src}`);
        expect([icon.src, image.status, image.headers.get('content-type')]).toEqual([icon.src, 200, 'image/png']);
        const { format, width, height } = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
        expect(`${format} ${width}x${height}`).toBe(`png ${icon.sizes}`);
      }
      // Chromium's own reading: the manifest parsed without errors (the CSP let it load) and installable.
      const devtools = await page.context().newCDPSession(page);
      const read = await devtools.send('Page.getAppManifest');
      expect([read.url, read.errors]).toEqual([`${testApp.baseUrl}/dashboard/app.webmanifest`, []]);
      // (A test's browser context is incognito, where Chromium installs nothing: that one reason aside.)
      const { installabilityErrors } = await devtools.send('Page.getInstallabilityErrors');
      expect(installabilityErrors.filter(({ errorId }) => errorId !== 'in-incognito')).toEqual([]);
      expect(outside).toEqual([]);
      expect(refusedByPolicy).toEqual([]);
    });
    await page.context().close();
  });

  it('controls the page with its service worker, which keeps the shell and paints it with no network', async () => {
    const { page, outside, refusedByPolicy } = await signedIn();
    await step(page, 'app-offline', async () => {
      const worker = await fetch(`${testApp.baseUrl}/sw.js`);
      expect(worker.headers.get('cache-control')).toBe('no-cache');
      expect(worker.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
      const source = await worker.text();
      // Workbox is bundled: nothing imported from its CDN.
      expect(source).toContain('/dashboard/main.js');
      expect(source).not.toMatch(/importScripts|workbox-cdn|googleapis/);
      // (The page's code as text: the tests are compiled without the DOM's types.)
      await until(
        async () => (await page.evaluate('navigator.serviceWorker.controller !== null')) === true,
        'the worker to control the page',
      );
      expect(await page.evaluate('navigator.serviceWorker.controller.scriptURL')).toBe(`${testApp.baseUrl}/sw.js`);
      // The precache holds the page, its files, the catalogues and icons; never an answer of the API.
      const kept = await page.evaluate<string[]>(`(async () => {
        const urls = [];
        for (const name of await caches.keys())
          for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        return urls;
      })()`);
      expect(kept).toEqual(
        expect.arrayContaining([
          '/',
          '/dashboard/main.js',
          '/dashboard/main.css',
          '/dashboard/locales/en.json',
          '/dashboard/icons/icon-192.png',
          ...chunksWith('src/dashboard/spending.tsx').map((chunk) => expect.stringMatching(`^${chunk}`)),
        ]),
      );
      expect(kept.filter((url) => !(url === '/' || url.startsWith('/dashboard/')))).toEqual([]);
      // With the worker in control, the page's requests still pass the test's routing (offlinePage's guard).
      let routed = 0;
      await page.route('**/graphql', (route) => {
        routed += 1;
        return route.fallback();
      });
      await page.evaluate(
        `fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })`,
      );
      expect(routed).toBe(1);
      await page.unroute('**/graphql');

      const offlineNotice = page.getByRole('status').filter({ hasText: 'You are offline' });
      expect(await offlineNotice.count()).toBe(0);
      await page.context().setOffline(true);
      await offlineNotice.waitFor();
      await page.reload();
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Overview' }).waitFor();
      await offlineNotice.waitFor();
      await page.context().setOffline(false);
      await offlineNotice.waitFor({ state: 'detached' });
      expect(outside).toEqual([]);
      expect(refusedByPolicy).toEqual([]);
    });
    await page.context().close();
  });

  it('fetches a later screen’s code, and chart.js, only when that screen opens', async () => {
    const { page, outside, requested } = await signedIn();
    await step(page, 'app-chunks', async () => {
      const chunks = () => requested.filter((url) => url.startsWith('/dashboard/chunks/'));
      const spending = chunksWith('src/dashboard/spending.tsx');
      const chart = chunksWith('node_modules/chart.js/');
      expect(spending).toHaveLength(1);
      expect(chart.length).toBeGreaterThan(0);
      expect(chunks().every((chunk) => firstScreen.includes(chunk.slice('/dashboard/'.length)))).toBe(true);
      expect(chunks()).not.toEqual(expect.arrayContaining([spending[0]]));
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Spending' }).click();
      await page.getByRole('heading', { level: 1, name: 'Spending' }).waitFor();
      expect(chunks()).toEqual(expect.arrayContaining([...spending, ...chart]));
      expect(outside).toEqual([]);
    });
    await page.context().close();
  });
});
