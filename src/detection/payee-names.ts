/**
 * A payee as banks write it ("PAYPAL *NETFLIX.COM 4029357733 NL", "4871 **** 1234 REWE 31.01. 14:32") reduced
 * to the merchant: the same key for every booking of the same payments, whatever the bank appended.
 */

export interface PayeeName {
  /** Lower-case words, the grouping key ('' when nothing of a name is left). */
  key: string;
  /** The same words capitalised, for people. */
  display: string;
}

/** Payment processors written before the merchant; the processor's own name when no merchant follows. */
const PROCESSOR_PREFIXES: Array<{ pattern: RegExp; name: string }> = [
  { pattern: /^paypal\s*\*/i, name: 'PayPal' },
  { pattern: /^pp\s*\*/i, name: 'PayPal' },
  { pattern: /^sq\s*\*/i, name: 'Square' },
  { pattern: /^sumup\s*\*/i, name: 'SumUp' },
  { pattern: /^iz\s*\*/i, name: 'iZettle' },
  { pattern: /^google\s*\*/i, name: 'Google' },
  { pattern: /^apple\.com\/bill\b/i, name: 'Apple' },
  { pattern: /^amzn\s+mktp\b(\s+[a-z]{2}\b)?\s*\*?/i, name: 'Amazon Marketplace' },
];

/** What banks append that names nothing: card numbers and masks, dates, times, phone and reference numbers. */
const DECORATIONS = [
  /\b\d{4,6}[\s*xX]*[*xX]{2,}[\s*xX]*\d{2,4}\b/g, // 4871 **** **** 1234
  /[*xX]{4,}\s?\d{2,4}\b/g, // XXXX1234, ****1234
  /\b\d{4}-\d{2}-\d{2}\b/g, // 2026-01-31
  /\b\d{1,2}\.\d{1,2}\.(\d{2,4})?/g, // 31.01. and 31.01.2026
  /\b\d{1,2}\/\d{1,2}(\/\d{2,4})?\b/g, // 01/31 and 01/31/2026
  /\b\d{1,2}:\d{2}(:\d{2})?\b/g, // 14:32
  /\b(ref|referenz|reference|mref|eref|kref|mandat|mandate|auth|txn|nr|no)\b[.:]?\s*\S*\d\S*/gi,
];

/** Upper-case words after two or more spaces at the end: the city card texts append ("NETFLIX.COM   AMSTERDAM"). */
const TRAILING_CITY = /\s{2,}[A-ZÄÖÜ][A-ZÄÖÜß .'-]*$/;

const WEB_DOMAIN = /^(www\.)?([\p{L}\p{N}-]+)\.(com|net|org|de|nl|co\.uk|uk|io|tv|fr|eu|ie|lu|app|at|ch)$/u;

const LEGAL_FORMS = new Set([
  'gmbh',
  'ltd',
  'limited',
  'inc',
  'llc',
  'sarl',
  'bv',
  'nv',
  'ab',
  'ag',
  'sa',
  'se',
  'plc',
  'corp',
  'co',
  'kg',
  'ohg',
  'ug',
  'oy',
]);
/** Card and booking words banks put in the payee field, or before a card text in the description. */
const BOOKING_WORDS = new Set(['visa', 'mastercard', 'pos', 'kartenzahlung', 'lastschrift', 'sepa', 'debit', 'card']);
const LEADING_BOOKING_WORDS = new RegExp(`^((${[...BOOKING_WORDS].join('|')})\\b[\\s:]*)+`, 'i');
const COUNTRIES = new Set(
  'at be ch cz de dk es fi fr gb ie it lu nl no pl pt se uk us usa gbr deu nld irl lux fra'.split(' '),
);
const CITIES = [
  'amsterdam',
  'berlin',
  'hamburg',
  'munich',
  'muenchen',
  'münchen',
  'koeln',
  'köln',
  'frankfurt',
  'frankfurt am main',
  'stuttgart',
  'duesseldorf',
  'london',
  'dublin',
  'cork',
  'luxembourg',
  'paris',
  'stockholm',
  'vienna',
  'wien',
  'zurich',
  'new york',
  'san francisco',
  'los gatos',
  'sunnyvale',
  'mountain view',
  'cupertino',
  'seattle',
].map((city) => city.split(' '));

/** The merchant in a payee (or description) text. */
export function normalisePayee(text: string): PayeeName {
  let rest = text.trim().replace(LEADING_BOOKING_WORDS, '');
  let processor = '';
  for (const prefix of PROCESSOR_PREFIXES) {
    const match = prefix.pattern.exec(rest);
    if (!match) continue;
    processor = prefix.name;
    rest = rest.slice(match[0].length);
    break;
  }
  // After a processor, a text of only places and numbers names no merchant: the processor is the payee.
  let words = wordsOf(rest, processor ? 0 : 1);
  if (words.length === 0 && processor) words = wordsOf(processor, 1);
  const key = words.join(' ');
  return { key, display: words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ') };
}

/** The name's words, lower-case, without decorations, legal forms, countries and cities. */
function wordsOf(text: string, wordsKept: number): string[] {
  let rest = text.trim();
  const withoutCity = rest.replace(TRAILING_CITY, '');
  if (/[\p{L}]/u.test(withoutCity)) rest = withoutCity;
  for (const decoration of DECORATIONS) rest = rest.replace(decoration, ' ');
  const words = rest
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(WEB_DOMAIN, '$2'))
    .flatMap((word) => word.split(/[^\p{L}\p{N}&]+/u))
    .filter((word) => word !== '' && word !== '&' && !isReference(word) && !BOOKING_WORDS.has(word));
  // Single letters are what is left of "B.V." or "S.A."; legal forms never start a name.
  const named = words.filter((word, index) => index === 0 || (word.length > 1 && !LEGAL_FORMS.has(word)));
  return withoutTrailingPlaces(named, wordsKept);
}

/** Reference numbers: four digits or more, or a code of six characters mixing letters and digits. */
function isReference(word: string): boolean {
  const digits = word.replace(/\D/g, '').length;
  return digits >= 4 || (word.length >= 6 && digits >= 2);
}

/** Drops countries and cities from the end, as long as `wordsKept` words stay. */
function withoutTrailingPlaces(words: string[], wordsKept: number): string[] {
  const rest = [...words];
  for (;;) {
    if (rest.length > wordsKept && COUNTRIES.has(rest[rest.length - 1])) {
      rest.pop();
      continue;
    }
    const city = CITIES.find(
      (parts) =>
        rest.length >= parts.length + wordsKept &&
        parts.every((part, i) => rest[rest.length - parts.length + i] === part),
    );
    if (!city) return rest;
    rest.length -= city.length;
  }
}
