import { run, type StatementTarget } from '../platform/db/statements';

/** The tags statement beyond the unit of work's. */
export const tagRepository = {
  /** Makes the user's tag of that name unless it exists; concurrent requests cannot both make it (ON CONFLICT waits and yields). */
  async ensure(em: StatementTarget, userId: number, name: string): Promise<void> {
    await run(em, `insert into "tags" ("user_id", "name") values (?, ?) on conflict ("user_id", "name") do nothing`, [userId, name]);
  },
};
