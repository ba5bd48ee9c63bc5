import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The dashboard's message catalogues (src/dashboard/locales/<language>/<namespace>.json): every language has
 * every message of the English one, with the same placeholders and a form for each of its plural categories;
 * and every message the screens name exists.
 */
const DASHBOARD = path.resolve(__dirname, '../../src/dashboard');
const LOCALES = path.join(DASHBOARD, 'locales');
const LANGUAGES = ['en', 'de', 'fr', 'es'];
// i18next's plural suffixes: a message with a count has one key per category of the language's rules.
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Catalogue = Map<string, string>;

/** The language's messages as namespace:dotted.key → text. */
function catalogue(language: string): Catalogue {
  const messages: Catalogue = new Map();
  const visit = (prefix: string, value: unknown) => {
    if (typeof value === 'string') messages.set(prefix, value);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value))
        visit(prefix.endsWith(':') ? prefix + key : `${prefix}.${key}`, inner);
    else throw new Error(`${language} ${prefix}: not a message`);
  };
  for (const file of readdirSync(path.join(LOCALES, language)))
    visit(`${file.replace(/\.json$/, '')}:`, JSON.parse(readFileSync(path.join(LOCALES, language, file), 'utf8')));
  return messages;
}

/** Message keys without their plural suffix, each with the plural categories it has (empty: not plural). */
function baseKeys(messages: Catalogue): Map<string, Set<string>> {
  const bases = new Map<string, Set<string>>();
  for (const key of messages.keys()) {
    const plural = PLURAL.exec(key);
    const base = plural ? key.slice(0, plural.index) : key;
    const categories = bases.get(base) ?? new Set<string>();
    if (plural) categories.add(plural[1]);
    bases.set(base, categories);
  }
  return bases;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((match) => match[1]).sort();

const english = catalogue('en');

it('has the four languages and nothing else', () => {
  expect(readdirSync(LOCALES).sort()).toEqual([...LANGUAGES].sort());
});

describe.each(LANGUAGES.filter((language) => language !== 'en'))('the %s catalogue', (language) => {
  const messages = catalogue(language);
  const bases = baseKeys(messages);
  const englishBases = baseKeys(english);

  it('has every message of the English one, and none it lacks', () => {
    expect([...bases.keys()].sort()).toEqual([...englishBases.keys()].sort());
  });

  it("has each plural message in every one of the language's plural categories", () => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const [base, forms] of bases) {
      if ((englishBases.get(base)?.size ?? 0) === 0) continue;
      for (const category of categories)
        expect(`${base}: ${forms.has(category) ? category : 'missing'}`).toBe(`${base}: ${category}`);
    }
  });

  it('keeps the placeholders of each English message', () => {
    for (const [key, text] of messages) {
      const plural = PLURAL.exec(key);
      const base = plural ? key.slice(0, plural.index) : key;
      const englishText = english.get(key) ?? english.get(`${base}_other`);
      expect(`${key}: ${placeholders(text).join(',')}`).toBe(`${key}: ${placeholders(englishText ?? '').join(',')}`);
    }
  });
});

it('has every message the screens name', () => {
  const englishBases = baseKeys(english);
  const named = readdirSync(DASHBOARD)
    .filter((file) => /\.tsx?$/.test(file))
    .flatMap((file) => [...readFileSync(path.join(DASHBOARD, file), 'utf8').matchAll(/\bt\(\s*'([a-zA-Z-]+:[\w.]+)'/g)])
    .map((match) => match[1]);
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((key) => !englishBases.has(key))).toEqual([]);
});
