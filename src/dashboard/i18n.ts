/**
 * The language the dashboard speaks, through i18next: its catalogues are src/dashboard/locales/<language>/
 * <namespace>.json (one namespace a screen, and "common"), merged at build time into one file a language
 * (scripts/dashboard-locales.mjs) that is fetched before the first render and on every change. Messages are
 * named `namespace:key`; a count picks the plural form by the language's rules (`key_one`, `key_other`…).
 */
import i18next, { type TOptions } from 'i18next';

import type { Language } from './graphql.generated';

/** The languages the dashboard has catalogues for, English first (what is spoken when none fits). */
export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

/** Each language by its own name, for the language picker. */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
};

/** Where the last language spoken is kept, so the sign-in page speaks it before the profile is read. */
const KEPT = 'subledger.language';

const isLanguage = (code: string | null | undefined): code is LanguageCode =>
  (LANGUAGES as readonly string[]).includes(code ?? '');

/** The browser's first preferred language that has a catalogue, else English. */
export function browserLanguage(): LanguageCode {
  for (const tag of navigator.languages?.length ? navigator.languages : [navigator.language]) {
    const code = tag.toLowerCase().split('-')[0];
    if (isLanguage(code)) return code;
  }
  return 'en';
}

/** The language a profile's setting asks for: its own, or the browser's for BROWSER. */
export function languageOf(setting: Language): LanguageCode {
  const code = setting.toLowerCase();
  return isLanguage(code) ? code : browserLanguage();
}

/** The language spoken last on this device, else the browser's. */
export function keptLanguage(): LanguageCode {
  const kept = localStorage.getItem(KEPT);
  return isLanguage(kept) ? kept : browserLanguage();
}

/** The language spoken now. */
export const currentLanguage = (): LanguageCode => (isLanguage(i18next.language) ? i18next.language : 'en');

/**
 * The locale numbers and dates are written in: the browser's own when it is of the language spoken (its region
 * kept: en-GB writes 31/12), else the language's.
 */
export function locale(): string {
  const spoken = currentLanguage();
  return navigator.language.toLowerCase().split('-')[0] === spoken ? navigator.language : spoken;
}

/** Fetches the language's catalogue (once) and speaks it: the page's lang follows, and it is kept. */
export async function speak(code: LanguageCode): Promise<void> {
  if (!i18next.isInitialized)
    await i18next.init({
      lng: code,
      fallbackLng: false,
      resources: {},
      // Preact escapes what it renders; escaping here would show &amp; in text.
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  if (!i18next.hasResourceBundle(code, 'common')) {
    const response = await fetch(`/dashboard/locales/${code}.json`);
    if (!response.ok) throw new Error(`The ${code} catalogue did not load (${response.status}).`);
    const namespaces = (await response.json()) as Record<string, Record<string, unknown>>;
    for (const [namespace, messages] of Object.entries(namespaces))
      i18next.addResourceBundle(code, namespace, messages, true, true);
  }
  await i18next.changeLanguage(code);
  document.documentElement.lang = code;
  localStorage.setItem(KEPT, code);
}

/** The event a change of language is told by: every screen is then drawn anew. */
export const LANGUAGE_CHANGED = 'subledger:language';

/** Speaks another language: its catalogue is fetched, then LANGUAGE_CHANGED redraws every screen in it. */
export async function changeLanguage(code: LanguageCode): Promise<void> {
  if (code === currentLanguage()) return;
  await speak(code);
  window.dispatchEvent(new Event(LANGUAGE_CHANGED));
}

/** The message `namespace:key` in the language spoken, its {{placeholders}} filled from `values`. */
export function t(key: string, values?: TOptions): string {
  return i18next.t(key, values) as string;
}
