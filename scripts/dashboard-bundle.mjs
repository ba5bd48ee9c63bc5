// The dashboard's JavaScript and CSS, bundled by esbuild with code splitting: dist/dashboard/main.js (the entry)
// and main.css carry the first screens (sign-in, Overview); every screen imported with import() and the code
// screens share are chunks under dist/dashboard/chunks/, named by a hash of their content (served with a year's
// cache, as a new build names a changed chunk anew). The chunks of the build before are removed first.
// dist/dashboard-meta.json (outside the served folder) holds what the first screen loads, `firstScreen` (the
// files, relative to dist/dashboard/), and esbuild's metafile (which output bundles which sources): the service
// worker's build, the bundle budget test and the bench read it.
//
//   node scripts/dashboard-bundle.mjs [--root FOLDER]   (run by `npm run build:dashboard`, first)
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const META = path.join('dist', 'dashboard-meta.json');
const ENTRY = 'dist/dashboard/main.js';

/**
 * The files the first screen loads before it paints, relative to dist/dashboard/: the entry, every chunk it
 * imports statically (transitively; not those behind an import()) and the CSS, from the metafile's outputs.
 */
function firstScreenFiles(metafile) {
  const files = new Set();
  const visit = (output) => {
    if (files.has(output)) return;
    files.add(output);
    const { imports, cssBundle } = metafile.outputs[output];
    if (cssBundle) files.add(cssBundle);
    for (const imported of imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  visit(ENTRY);
  return [...files].map((file) => path.posix.relative('dist/dashboard', file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { build } = await import('esbuild');
  const at = process.argv.indexOf('--root');
  const root = path.resolve(
    at < 0 ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..') : process.argv[at + 1],
  );
  fs.rmSync(path.join(root, 'dist', 'dashboard', 'chunks'), { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ['src/dashboard/main.tsx'],
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'dist/dashboard',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'chunks/[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  }).catch(() => process.exit(1)); // esbuild has said why.
  fs.writeFileSync(path.join(root, META), JSON.stringify({ firstScreen: firstScreenFiles(metafile), metafile }));
}
