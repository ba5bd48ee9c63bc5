import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { OwnedNamesRepository } from './owned-names.repository';
import { Tag } from './tag.entity';

/** The tags table: a user's named tags, and the ones a record's write names made on the way. */
export class TagRepository extends OwnedNamesRepository<Tag> {
  constructor(db: DataSource) {
    super(db, Tag);
  }

  /**
   * Makes the user's tags of these names unless they exist; concurrent requests cannot both make one (ON
   * CONFLICT waits and yields). Names go in sorted, so two such statements take their rows in the same order.
   */
  async ensure(userId: number, names: readonly string[]): Promise<void> {
    await this.db.run(
      sql`insert into "tags" ("user_id", "name") select ${userId}, n.name from jsonb_array_elements_text(${JSON.stringify([...names].sort())}::jsonb) as n(name)
       on conflict ("user_id", "name") do nothing`,
    );
  }
}
