import { existsSync } from 'node:fs';
import path from 'node:path';

import { Router } from 'express';

import { htmlPage, servedFiles } from './package-files';

/**
 * The dashboard bundle that `npm run build` writes with esbuild (dist/dashboard/: main.js and main.css), from
 * this file's place in src/ (tests) or in dist/src/ (the built server).
 */
export function bundleFolder(): string | null {
  const candidates = [
    path.resolve(__dirname, '../../../dist/dashboard'),
    path.resolve(__dirname, '../../../dashboard'),
  ];
  return candidates.find((folder) => existsSync(path.join(folder, 'main.js'))) ?? null;
}

/** GET / (and /reset-password): the single-page dashboard, which talks only GraphQL (src/dashboard/). */
export function dashboardPage(): Router {
  const router = Router();
  const folder = bundleFolder();
  if (!folder) return router;
  router.use(
    '/dashboard',
    servedFiles({ 'main.js': path.join(folder, 'main.js'), 'main.css': path.join(folder, 'main.css') }),
  );
  const page = htmlPage(
    'Subledger',
    '<meta name="color-scheme" content="light dark">\n<link rel="stylesheet" href="/dashboard/main.css">\n<script type="module" src="/dashboard/main.js"></script>',
    '<div id="app"></div>\n<noscript>The Subledger dashboard needs JavaScript. The API is at /graphql and /api/v1.</noscript>',
  );
  // A password-reset link (/reset-password?token=…) opens the dashboard.
  router.get(['/', '/reset-password'], page);
  return router;
}
