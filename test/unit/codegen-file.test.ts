import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** graphql-codegen's command, run as `npm run codegen` runs it (from the project root). */
const CODEGEN = path.join(path.dirname(require.resolve('@graphql-codegen/cli/package.json')), 'esm', 'bin.js');

/**
 * The dashboard's operations are valid against schema/schema.graphql (codegen fails on any that is not) and
 * src/dashboard/graphql.generated.ts is their current types: what `npm run typecheck` checks first.
 */
it('src/dashboard/graphql.generated.ts is what codegen makes of the schema and the dashboard (npm run codegen)', () => {
  const check = spawnSync(process.execPath, [CODEGEN, '--check'], {
    cwd: path.resolve(__dirname, '../..'),
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  // On failure, what codegen said: the stale file, or the operation and the schema's complaint.
  expect(check.status === 0 ? '' : `${check.stdout}${check.stderr}`).toBe('');
});
