// The dashboard's GraphQL operations, registered at build time: every top-level (perhaps exported)
// `const Name = /* GraphQL */ `...`` of src/dashboard/*.tsx, written to dist/dashboard/persisted-operations.json
// as { "<SHA-256 of the exact text, hex>": "<text>" }. The server loads it: with GRAPHQL_PERSISTED_ONLY=true
// only these operations run (by their text or by their hash alone), and otherwise they are found by hash
// without being registered first (automatic persisted queries).
//
//   node scripts/persisted-operations.mjs [--root FOLDER]   (run by `npm run build:dashboard`, after esbuild)
//
// The dashboard sends each constant unchanged (src/dashboard/api.ts), so its text is the registered one. A
// literal the build cannot register as written (an interpolation, an escape, a `/* GraphQL */` that is not such
// a constant, two operations of one name) fails the build.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const MARK = /\/\*\s*GraphQL\s*\*\//g;
const CONSTANT = /^(?:export )?const ([A-Za-z_$][\w$]*) = \/\* GraphQL \*\/ `([^`]*)`;?$/gm;
const OPERATION_NAME = /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

export const MANIFEST = 'persisted-operations.json';

export function sha256Hex(text) {
  return createHash('sha256').update(text).digest('hex');
}

/** The dashboard's operations, in file and source order: { file, constant, name, text }. */
export function dashboardOperations(root) {
  const folder = path.join(root, 'src', 'dashboard');
  const operations = [];
  const problems = [];
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.tsx'))
    .sort()) {
    const source = fs.readFileSync(path.join(folder, file), 'utf8');
    const marks = source.match(MARK)?.length ?? 0;
    const found = [...source.matchAll(CONSTANT)];
    if (found.length !== marks)
      problems.push(
        `${file}: ${marks - found.length} /* GraphQL */ literal(s) are not a top-level const of one plain template`,
      );
    for (const [, constant, text] of found) {
      if (text.includes('${') || text.includes('\\'))
        problems.push(`${file}: ${constant} has an interpolation or an escape; the text sent must be the text written`);
      const name = OPERATION_NAME.exec(text)?.[1];
      if (!name) problems.push(`${file}: ${constant} is not one named operation`);
      operations.push({ file, constant, name, text });
    }
  }
  const seen = new Map();
  for (const operation of operations) {
    const other = seen.get(operation.name);
    if (other) problems.push(`operation ${operation.name} is in both ${other.file} and ${operation.file}`);
    seen.set(operation.name, operation);
  }
  if (problems.length > 0) throw new Error(`dashboard operations:\n  ${problems.join('\n  ')}`);
  return operations;
}

/** { hash: text } of the dashboard's operations. */
export function persistedOperations(root) {
  return Object.fromEntries(dashboardOperations(root).map(({ text }) => [sha256Hex(text), text]));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--root');
  const root = path.resolve(
    at < 0 ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..') : process.argv[at + 1],
  );
  const target = path.join(root, 'dist', 'dashboard', MANIFEST);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Through a temporary name: a running server never reads half a file.
  const partial = `${target}.partial-${process.pid}`;
  fs.writeFileSync(partial, `${JSON.stringify(persistedOperations(root), null, 2)}\n`);
  fs.renameSync(partial, target);
}
