// The dashboard's message catalogues, one file a language: src/dashboard/locales/<language>/<namespace>.json
// merged into dist/dashboard/locales/<language>.json as { "<namespace>": { …its messages } }. The dashboard
// fetches the one it speaks (src/dashboard/i18n.ts); a namespace is a screen's, or "common".
//
//   node scripts/dashboard-locales.mjs [--root FOLDER]   (run by `npm run build:dashboard`)
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const LOCALES = 'locales';

/** { language: { namespace: messages } } of the catalogues under src/dashboard/locales. */
export function catalogues(root) {
  const folder = path.join(root, 'src', 'dashboard', LOCALES);
  const merged = {};
  for (const language of fs.readdirSync(folder).sort()) {
    merged[language] = {};
    for (const file of fs.readdirSync(path.join(folder, language)).sort()) {
      if (!file.endsWith('.json')) continue;
      merged[language][file.slice(0, -'.json'.length)] = JSON.parse(
        fs.readFileSync(path.join(folder, language, file), 'utf8'),
      );
    }
  }
  return merged;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(
    at < 0 ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..') : process.argv[at + 1],
  );
  const target = path.join(root, 'dist', 'dashboard', LOCALES);
  fs.mkdirSync(target, { recursive: true });
  for (const [language, namespaces] of Object.entries(catalogues(root)))
    fs.writeFileSync(path.join(target, `${language}.json`), JSON.stringify(namespaces));
}
