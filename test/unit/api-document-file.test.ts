import { readFileSync } from 'node:fs';

import SwaggerParser from '@apidevtools/swagger-parser';
import type { Router } from 'express';

import { createRestFacade } from '../../rest-facade';
import { OPENAPI_FILE, openApiDocument, printOpenApi } from '../../rest-facade/openapi/document';
import { loadConfig } from '../../src/platform/config';
import type { Services } from '../../src/runtime/services';

interface Layer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** `<method> <path>` of every route a router holds, nested routers included, in OpenAPI's path syntax. */
function routesOf(router: { stack: Layer[] }, prefix = ''): string[] {
  return router.stack.flatMap((layer) => {
    const base = layer.rawPath && layer.rawPath !== '/' ? `${prefix}${layer.rawPath}` : prefix;
    if (layer.route) {
      const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, '{$1}');
      return Object.keys(layer.route.methods).map((method) => `${method} ${path}`);
    }
    return layer.handle.stack ? routesOf(layer.handle as { stack: Layer[] }, base) : [];
  });
}

it('the committed schema/openapi.json is the document the code describes (npm run schema:print writes it)', () => {
  expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(printOpenApi());
});

it('the document is valid OpenAPI 3.1', async () => {
  await expect(SwaggerParser.validate(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')))).resolves.toBeDefined();
});

it('documents every route of the REST facade and no route it lacks', () => {
  // Building the routers only reads the services' names; nothing is called.
  const facade = createRestFacade({
    services: {} as Services,
    config: loadConfig({ NODE_ENV: 'test' }),
    requestLimiter: null,
  }) as Router & { stack: Layer[] };
  const routes = routesOf(facade).sort();
  const documented = Object.entries(openApiDocument().paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
    .sort();
  expect(routes.length).toBeGreaterThan(40);
  expect(routes).toEqual(documented);
});
