// What makes the dashboard an installable app, written into dist/dashboard/ after the bundle and the catalogues:
// - icons/: the app icon at 192 and 512 pixels, and a maskable one (its artwork inside the safe circle, on a
//   full-bleed background), made with sharp from src/dashboard/app-icon.svg;
// - app.webmanifest: the web app manifest the page links (name, start at /, standalone, colours, icons);
// - sw.js: the service worker (src/dashboard/service-worker/worker.ts), bundled with Workbox's modules by
//   esbuild, with the list of the files it precaches and a hash of each written in for `self.__WB_MANIFEST`:
//   the page (/), the bundle's scripts and main.css (from dist/dashboard-meta.json: no chunk of an earlier
//   build), the catalogues, the icons and the manifest. A chunk's name carries its hash already; every other
//   file gets the hash of its content, and the page the hash of them all.
//
//   node scripts/dashboard-app.mjs [--root FOLDER]   (run by `npm run build:dashboard`, last)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';
import sharp from 'sharp';

import { META } from './dashboard-bundle.mjs';

const at = process.argv.indexOf('--root');
const root = path.resolve(
  at < 0 ? path.join(path.dirname(fileURLToPath(import.meta.url)), '..') : process.argv[at + 1],
);
const target = path.join(root, 'dist', 'dashboard');

// The accent and the page's background of the light theme (src/dashboard/styles.css).
const THEME_COLOUR = '#4338ca';
const BACKGROUND_COLOUR = '#ffffff';
// A maskable icon's artwork must fit the circle of 80% of its width that every mask keeps: at 72% it does.
const MASKABLE_ARTWORK = 0.72;

const ICONS = [
  { file: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { file: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { file: 'icons/icon-maskable-512.png', size: 512, purpose: 'maskable' },
];

async function writeIcons() {
  const svg = fs.readFileSync(path.join(root, 'src', 'dashboard', 'app-icon.svg'));
  fs.rmSync(path.join(target, 'icons'), { recursive: true, force: true });
  fs.mkdirSync(path.join(target, 'icons'));
  for (const { file, size, purpose } of ICONS) {
    const artwork = purpose === 'maskable' ? Math.round(size * MASKABLE_ARTWORK) : size;
    const [before, after] = [Math.floor((size - artwork) / 2), Math.ceil((size - artwork) / 2)];
    const icon = sharp(svg, { density: 300 })
      .resize(artwork, artwork)
      .extend({ top: before, left: before, bottom: after, right: after, background: THEME_COLOUR })
      .flatten(purpose === 'maskable' && { background: THEME_COLOUR });
    await icon.png({ compressionLevel: 9 }).toFile(path.join(target, file));
  }
}

function writeManifest() {
  const manifest = {
    id: '/',
    name: 'Subledger',
    short_name: 'Subledger',
    description: 'Your subscriptions: what they cost, and when they are due.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOUR,
    background_color: BACKGROUND_COLOUR,
    icons: ICONS.map(({ file, size, purpose }) => ({
      src: `/dashboard/${file}`,
      sizes: `${size}x${size}`,
      type: 'image/png',
      purpose,
    })),
  };
  fs.writeFileSync(path.join(target, 'app.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const hashOf = (content) => createHash('sha256').update(content).digest('hex').slice(0, 16);

/** Workbox's precache list: { url, revision } (revision null for a file whose name carries its hash). */
function precacheList() {
  const { firstScreen, metafile } = JSON.parse(fs.readFileSync(path.join(root, META), 'utf8'));
  const bundled = Object.keys(metafile.outputs).map((output) => path.posix.relative('dist/dashboard', output));
  const files = [
    // Every chunk; CSS only as the page links it (esbuild writes a chunk's CSS too, which nothing loads).
    ...bundled.filter((file) => file.endsWith('.js') || firstScreen.includes(file)),
    ...fs.readdirSync(path.join(target, 'locales')).map((file) => `locales/${file}`),
    ...ICONS.map(({ file }) => file),
    'app.webmanifest',
  ].sort();
  const entries = files.map((file) => ({
    url: `/dashboard/${file}`,
    revision: file.startsWith('chunks/') ? null : hashOf(fs.readFileSync(path.join(target, file))),
  }));
  const everything = hashOf(entries.map(({ url, revision }) => `${url} ${revision}`).join('\n'));
  return [{ url: '/', revision: everything }, ...entries];
}

await writeIcons();
writeManifest();
await build({
  absWorkingDir: root,
  entryPoints: ['src/dashboard/service-worker/worker.ts'],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  outfile: 'dist/dashboard/sw.js',
  define: {
    'self.__WB_MANIFEST': JSON.stringify(precacheList()),
    // Workbox's development logging and checks out.
    'process.env.NODE_ENV': '"production"',
  },
  logLevel: 'warning',
}).catch(() => process.exit(1)); // esbuild has said why.
