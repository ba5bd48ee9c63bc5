import { buildTemplate } from './postgres-cluster';

/**
 * Run by `npm install` (prepare): the template cluster a new DATA_DIR is copied from. A failure is reported
 * and leaves the install intact; the first start then runs initdb itself.
 */
buildTemplate().catch((error: unknown) => {
  console.warn(
    `subledger: no PostgreSQL template made (the first start will run initdb): ${error instanceof Error ? error.message : String(error)}`,
  );
});
