import { run, type StatementTarget } from '../platform/db/statements';

/** The tags statement beyond the unit of work's. */
export const tagRepository = {
  /**
   * Makes the user's tags of these names unless they exist; concurrent requests cannot both make one (ON
   * CONFLICT waits and yields). Names go in sorted, so two such statements take their rows in the same order.
   */
  async ensure(em: StatementTarget, userId: number, names: readonly string[]): Promise<void> {
    await run(
      em,
      `insert into "tags" ("user_id", "name") select ?, n.name from jsonb_array_elements_text(?::jsonb) as n(name)
       on conflict ("user_id", "name") do nothing`,
      [userId, JSON.stringify([...names].sort())],
    );
  },
};
