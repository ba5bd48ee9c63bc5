/**
 * Developer tool: diffs the entities against a database migrated to the newest committed migration and
 * writes the difference as a new migration under src/db/migrations (then add its name to index.ts).
 * Usage: DATABASE_URL=postgres://…/scratch npm run migration:create -- <name>
 */
import 'reflect-metadata';

import { MikroORM } from '@mikro-orm/core';

import { committedMigrator } from './migrations';
import { ormOptions } from './orm';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must name a scratch database');
  const orm = await MikroORM.init(ormOptions(url, 2));
  try {
    const migrator = committedMigrator(orm);
    await migrator.up();
    const result = await migrator.createMigration(undefined, false, false, process.argv[2]);
    console.log(result.fileName ? `written ${result.fileName}` : 'no changes');
  } finally {
    await orm.close(true);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
