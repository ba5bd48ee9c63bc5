import { MikroORM } from '@mikro-orm/core';

import { committedMigrator } from '../../src/db/migrations';
import { ormOptions } from '../../src/db/orm';
import { provisionDatabase } from '../support/database';

it('the entities and the committed migrations describe the same schema (migration:create would write nothing)', async () => {
  const database = await provisionDatabase();
  const orm = await MikroORM.init(ormOptions(database.url, 2));
  try {
    await committedMigrator(orm).up();
    const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    expect(diff.trim()).toBe('');
  } finally {
    await orm.close(true);
    await database.drop();
  }
});
