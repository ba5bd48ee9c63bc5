/**
 * The data version of the user in `userColumn` (see the data_versions migration), as text: the user's own
 * scope, scope 0 (the rows every user reads) and the owners of the households the user joined (whose shared
 * records they read). A subquery, not a SQL function: PostgreSQL would not inline a function with an
 * aggregate and would plan it again on every call of this hot path.
 */
export function dataVersionSql(userColumn: string): string {
  return `(select coalesce(sum(v."version"), 0)::text from "data_versions" v
            where v."scope" = any(array[${userColumn}, 0] || array(select m."owner_id" from "household_members" m
                                                                    where m."user_id" = ${userColumn} and m."owner_id" <> m."user_id")))`;
}
