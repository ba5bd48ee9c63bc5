import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import i18next from 'i18next';

// Required, not imported: the dashboard's modules use the browser's globals, which the server's type check
// (tsconfig.json, Node's types) does not know; these are the signatures this test uses.
const { billingCycles, billingInSentence, billingWording, recordStatuses } = jest.requireActual<{
  billingCycles(): Record<string, string>;
  billingInSentence(cycle: string, frequency: number): string;
  billingWording(type: string, cycle: string, frequency: number): string;
  recordStatuses(): Record<string, string>;
}>('../../src/dashboard/format');

/**
 * The record's billing as each language says it, through its catalogue (src/dashboard/locales) and its plural
 * rules: the count picks the form ("Every 2 months", "Alle 2 Monate", "Tous les 2 mois", "Cada 2 meses").
 */
const LOCALES = path.resolve(__dirname, '../../src/dashboard/locales');

beforeAll(async () => {
  const resources = Object.fromEntries(
    readdirSync(LOCALES).map((language) => [
      language,
      Object.fromEntries(
        readdirSync(path.join(LOCALES, language)).map((file) => [
          file.replace(/\.json$/, ''),
          JSON.parse(readFileSync(path.join(LOCALES, language, file), 'utf8')) as Record<string, unknown>,
        ]),
      ),
    ]),
  );
  await i18next.init({ lng: 'en', fallbackLng: false, resources, interpolation: { escapeValue: false } });
});

it.each([
  ['en', 'Monthly', 'Every 2 months', 'Every 3 weeks, trial', 'Lifetime', 'every 2 days'],
  ['de', 'Monatlich', 'Alle 2 Monate', 'Alle 3 Wochen, Testphase', 'Lebenslang', 'alle 2 Tage'],
  ['fr', 'Mensuel', 'Tous les 2 mois', 'Toutes les 3 semaines, essai', 'À vie', 'tous les 2 jours'],
  ['es', 'Mensual', 'Cada 2 meses', 'Cada 3 semanas, prueba', 'De por vida', 'cada 2 días'],
])('says billing in %s', async (language, monthly, everyTwoMonths, trial, lifetime, inSentence) => {
  await i18next.changeLanguage(language);
  expect(billingWording('SUBSCRIPTION', 'MONTHLY', 1)).toBe(monthly);
  expect(billingCycles().MONTHLY).toBe(monthly);
  expect(billingWording('SUBSCRIPTION', 'MONTHLY', 2)).toBe(everyTwoMonths);
  expect(billingWording('TRIAL', 'WEEKLY', 3)).toBe(trial);
  expect(billingWording('LIFETIME', 'YEARLY', 1)).toBe(lifetime);
  expect(billingInSentence('DAILY', 2)).toBe(inSentence);
  expect(Object.values(recordStatuses()).every((status) => status !== '' && !status.includes(':'))).toBe(true);
});

it("uses French and Spanish 'many' for a million", async () => {
  await i18next.changeLanguage('fr');
  expect(billingWording('SUBSCRIPTION', 'DAILY', 1_000_000)).toBe('Tous les 1000000 de jours');
  await i18next.changeLanguage('es');
  expect(billingWording('SUBSCRIPTION', 'YEARLY', 1_000_000)).toBe('Cada 1000000 de años');
});
