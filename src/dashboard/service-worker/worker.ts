/**
 * The dashboard's service worker, served at /sw.js with the scope /: it keeps the app's shell (the page, its
 * JavaScript and CSS, the message catalogues, the icons and the manifest) so the dashboard opens without a
 * network and says it is offline. Bundled with Workbox's modules by scripts/dashboard-app.mjs, which writes in
 * the files to precache with a hash of each (a new build replaces the changed ones and drops the rest): nothing
 * of Workbox is loaded from elsewhere.
 *
 * The user's data is never kept here: /graphql, /api/ and /logos/ have no route, so they go to the network as
 * without a worker (the logos keep their HTTP caching; offline, no screen has data to show them with).
 */
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  precacheAndRoute,
  type PrecacheEntry,
  PrecacheFallbackPlugin,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };

/** The page's address, precached as the shell. */
const PAGE = '/';

// The page from the network while there is one (the server's is always this release's), else the shell.
registerRoute(
  new NavigationRoute(new NetworkOnly({ plugins: [new PrecacheFallbackPlugin({ fallbackURL: PAGE })] }), {
    allowlist: [/^\/(\?.*)?$/, /^\/reset-password(\?.*)?$/],
  }),
);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first worker serves the page that installed it at once; a later one waits until no tab runs the old
// release, whose chunks only the old worker still keeps.
clientsClaim();
