import 'reflect-metadata';

import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { printSchema } from 'graphql';

import { OPENAPI_FILE, printOpenApi } from '../../rest-facade/openapi/document';
import { buildAppSchema } from './schema';
import type { Services } from './services';

/** The committed schema/schema.graphql (npm run schema:print also writes schema/openapi.json): the SDL the resolvers produce (a test fails when the two differ). */
export async function printAppSchema(): Promise<string> {
  // Building the schema only reads resolver metadata; no service is called.
  return `${printSchema(await buildAppSchema({} as Services))}\n`;
}

/** npm scripts and jest both run from the project root. */
export const SCHEMA_FILE = path.resolve(process.cwd(), 'schema', 'schema.graphql');

if (require.main === module) {
  void printAppSchema().then((sdl) => {
    writeFileSync(SCHEMA_FILE, sdl);
    writeFileSync(OPENAPI_FILE, printOpenApi());
    console.log(`written ${SCHEMA_FILE} and ${OPENAPI_FILE}`);
  });
}
