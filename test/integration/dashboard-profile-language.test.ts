import type { Browser, Page } from 'playwright-core';

import {
  accessibilityProblems,
  describeInBrowser,
  launchBrowser,
  newClockedContext,
  offlinePage,
  step,
} from '../support/browser';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 43's language setting in Chromium (run with an English locale): Deutsch picked in the profile is
 * spoken at once, after a reload and on the sign-in page after logging out; the browser's language brings
 * English back; and a browser in Spanish is greeted in Spanish.
 */
describeInBrowser('the dashboard’s language in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let user: SignedUpUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await signUp(testApp);
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
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
  const language = async () => (await graphqlData(testApp, user.token, '{ me { language } }')).me.language;
  const navigation = (name: string) => page.getByRole('navigation', { name });
  const logIn = async (form: string, email: string, password: string, button = form) => {
    const login = page.getByRole('form', { name: form });
    await login.getByLabel(email).fill(user.email);
    await login.getByLabel(password).fill(user.password);
    await login.getByRole('button', { name: button }).click();
  };

  it('speaks German at once when Deutsch is picked in the profile', () =>
    step(page, 'language-german', async () => {
      await page.goto(`${testApp.baseUrl}/#/profile`);
      await logIn('Log in', 'E-mail', 'Password');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      const select = page.getByLabel('Language');
      // The heading shows before the profile has loaded; its form comes with it.
      await select.waitFor();
      expect(await select.locator('option').allTextContents()).toEqual([
        'Browser’s language',
        'English',
        'Deutsch',
        'Français',
        'Español',
      ]);
      expect(await select.inputValue()).toBe('BROWSER');
      // Anything kept on the window outlives a redraw and dies with a reload.
      await page.evaluate('window.notReloaded = true');
      await select.selectOption({ label: 'Deutsch' });
      await page.getByRole('button', { name: 'Save' }).click();
      await status('Profil gespeichert');
      expect(await page.evaluate("'notReloaded' in window")).toBe(true);
      await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
      expect(await navigation('Ansichten').getByRole('link', { name: 'Abos', exact: true }).count()).toBe(1);
      expect(await navigation('Ansichten').getByRole('button', { name: 'Abmelden' }).count()).toBe(1);
      expect(await page.getByLabel('Sprache', { exact: true }).inputValue()).toBe('DE');
      expect(await page.getByLabel('Wochen beginnen am').locator('option:checked').textContent()).toBe('Montag');
      expect(await page.getAttribute('html', 'lang')).toBe('de');
      expect(await language()).toBe('DE');
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('still speaks German after a reload', () =>
    step(page, 'language-reload', async () => {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
      expect(await page.evaluate("'notReloaded' in window")).toBe(false);
      await page.getByRole('button', { name: 'Speichern' }).waitFor();
    }));

  it('speaks German on the settings screens, with short buttons and nothing for axe to find', () =>
    step(page, 'language-settings-screens', async () => {
      // Each screen by its German name, and a part of it only the German catalogue names so.
      const screens: Array<[string, () => Promise<void>]> = [
        ['Erinnerungen', () => page.getByRole('form', { name: 'Erinnerung hinzufügen' }).waitFor()],
        ['Webhooks', () => page.getByRole('table', { name: 'Zustellprotokoll' }).waitFor()],
        ['Integrationen', () => page.getByRole('heading', { name: 'Kalender-Feeds' }).waitFor()],
        ['Sicherheit', () => page.getByRole('heading', { name: 'Zwei-Faktor-Anmeldung' }).waitFor()],
        ['Verwaltung', () => page.getByRole('table', { name: 'Prüfprotokoll' }).waitFor()],
        ['Profil', () => page.getByLabel('Sprache', { exact: true }).waitFor()],
      ];
      for (const [name, part] of screens) {
        await navigation('Ansichten').getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1, name }).waitFor();
        await part();
        await page.waitForLoadState('networkidle');
        const buttons = await page.locator('button:visible, a.button:visible').allTextContents();
        expect(buttons.filter((text) => text.trim().length > 40)).toEqual([]);
        expect(await accessibilityProblems(page)).toEqual([]);
      }
    }));

  it('greets in German on the sign-in page after logging out, the language kept on the device', () =>
    step(page, 'language-signed-out', async () => {
      await navigation('Ansichten').getByRole('button', { name: 'Abmelden' }).click();
      const form = page.getByRole('form', { name: 'Anmelden' });
      await form.getByLabel('Auf diesem Gerät angemeldet bleiben').waitFor();
      await form.getByRole('button', { name: 'Passwort vergessen?' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.reload();
      await logIn('Anmelden', 'E-Mail', 'Passwort');
      await page.getByRole('heading', { level: 1, name: 'Profil' }).waitFor();
    }));

  it("goes back to English, the browser's language, when that is picked", () =>
    step(page, 'language-browser', async () => {
      await page.getByLabel('Sprache', { exact: true }).selectOption({ label: 'Sprache des Browsers' });
      await page.getByRole('button', { name: 'Speichern' }).click();
      await status('Profile saved');
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      expect(await navigation('Screens').getByRole('link', { name: 'Subscriptions', exact: true }).count()).toBe(1);
      expect(await page.getByLabel('Language').inputValue()).toBe('BROWSER');
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await language()).toBe('BROWSER');
    }));

  it('greets a browser in Spanish in Spanish', async () => {
    const spanish = await (await newClockedContext(browser, { locale: 'es-ES' })).newPage();
    await step(spanish, 'language-spanish', async () => {
      await spanish.goto(`${testApp.baseUrl}/`);
      const form = spanish.getByRole('form', { name: 'Iniciar sesión' });
      await form.getByLabel('Correo electrónico').waitFor();
      await form.getByLabel('Contraseña').waitFor();
      await form.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
      expect(await spanish.getAttribute('html', 'lang')).toBe('es');
      expect(await accessibilityProblems(spanish)).toEqual([]);
    });
  });
});
