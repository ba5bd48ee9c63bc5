import { readFileSync } from 'node:fs';

import { printAppSchema, SCHEMA_FILE } from '../../src/runtime/print-schema';

it('schema/schema.graphql is what the resolvers generate (run `npm run schema:print` after changing them)', async () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await printAppSchema());
});
