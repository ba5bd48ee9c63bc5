/**
 * The data version of the user in `userColumn` (see the data_versions and member_data_versions migrations),
 * as text: the user's own scope, which every change they read moves (an owner's changes move their
 * household's members too), and scope 0 (the rows every user reads). Both only grow, so the version never
 * takes a value it had before. A subquery, not a SQL function: PostgreSQL would not inline a function with
 * an aggregate and would plan it again on every call of this hot path.
 */
export function dataVersionSql(userColumn: string): string {
  return `(select coalesce(sum(v."version"), 0)::text from "data_versions" v where v."scope" = any(array[${userColumn}, 0]))`;
}
