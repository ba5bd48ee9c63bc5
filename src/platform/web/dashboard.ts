import { existsSync } from 'node:fs';
import path from 'node:path';

import express, { Router } from 'express';

import { htmlPage } from './package-files';

/**
 * The dashboard bundle that `npm run build` writes (dist/dashboard/: main.js and main.css, the chunks under
 * chunks/, the catalogues under locales/, the app's manifest, icons and service worker), from this file's place
 * in src/ (tests) or in dist/src/ (the built server).
 */
export function bundleFolder(): string | null {
  const candidates = [
    path.resolve(__dirname, '../../../dist/dashboard'),
    path.resolve(__dirname, '../../../dashboard'),
  ];
  return candidates.find((folder) => existsSync(path.join(folder, 'main.js'))) ?? null;
}

/**
 * A year, never asked again: for a file named by its content's hash (a chunk of a build, a logo), whose
 * changed content has another name.
 */
export const HASHED_MAX_AGE = 'public, max-age=31536000, immutable';

/**
 * GET / (and /reset-password): the single-page dashboard, which talks only GraphQL (src/dashboard/); its files
 * under /dashboard/, and its service worker at /sw.js (scope /).
 */
export function dashboardPage(): Router {
  const router = Router();
  const folder = bundleFolder();
  if (!folder) return router;
  // Every file of the bundle (no listing, no dotfile, nothing outside it): chunks kept a year, the rest
  // (fixed names: main.js, the catalogues, the icons) revalidated on every load.
  router.use(
    '/dashboard',
    express.static(folder, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      setHeaders: (res, file) =>
        res.setHeader(
          'Cache-Control',
          path.relative(folder, file).startsWith(`chunks${path.sep}`) ? HASHED_MAX_AGE : 'no-cache',
        ),
    }),
  );
  // At the root, to control every page of the dashboard; revalidated, so a new release's worker is found.
  router.get('/sw.js', (_req, res) => {
    res.sendFile(path.join(folder, 'sw.js'), { headers: { 'Cache-Control': 'no-cache' } });
  });
  const page = htmlPage(
    'Subledger',
    [
      '<meta name="color-scheme" content="light dark">',
      '<link rel="manifest" href="/dashboard/app.webmanifest">',
      '<link rel="icon" type="image/png" sizes="192x192" href="/dashboard/icons/icon-192.png">',
      '<link rel="apple-touch-icon" href="/dashboard/icons/icon-192.png">',
      '<link rel="stylesheet" href="/dashboard/main.css">',
      '<script type="module" src="/dashboard/main.js"></script>',
    ].join('\n'),
    '<div id="app"></div>\n<noscript>The Subledger dashboard needs JavaScript. The API is at /graphql and /api/v1.</noscript>',
  );
  // A password-reset link (/reset-password?token=…) opens the dashboard.
  router.get(['/', '/reset-password'], page);
  return router;
}
