import { Router } from 'express';

import type { Config } from '../../src/platform/config';
import { htmlPage, servedFiles, servedScript, vendorAsset } from '../../src/platform/web/package-files';
import { openApiDocument } from './document';

/**
 * GET /openapi.json (the document, with the configured service name in its header names) and GET /docs, an
 * API reference rendered in the browser by Scalar's standalone bundle from node_modules: no CDN, no fonts
 * fetched, no proxy (Try it calls this server directly).
 */
export function apiDocsPages(config: Pick<Config, 'serviceShortName'>): Router {
  const router = Router();
  const document = JSON.stringify(openApiDocument(config.serviceShortName));
  router.get('/openapi.json', (_req, res) => {
    res.type('json').setHeader('Cache-Control', 'no-cache').send(document);
  });
  router.use(
    '/docs/assets',
    servedFiles({ 'scalar.js': vendorAsset('@scalar/api-reference', 'dist/browser/standalone.js') }),
  );
  const settings = {
    url: '/openapi.json',
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: true,
    proxyUrl: '',
    showDeveloperTools: 'never',
    agent: { disabled: true },
    mcp: { disabled: true },
  };
  const page = htmlPage(
    'Subledger REST API',
    '',
    `<div id="reference"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/start.js"></script>`,
  );
  router.get(
    '/docs/assets/start.js',
    servedScript(`Scalar.createApiReference('#reference', ${JSON.stringify(settings)});\n`),
  );
  router.get(['/docs', '/docs/'], page);
  return router;
}
