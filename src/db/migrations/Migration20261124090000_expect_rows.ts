import { Migration } from '@mikro-orm/migrations';

/**
 * A guard for writes that check their rows' versions instead of locking them: a statement that changed fewer
 * rows than it read ends in a serialization failure (40001), so everything it wrote rolls back and the
 * write is tried again from a fresh read.
 */
export class Migration20261124090000_expect_rows extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "expect_rows"("expected" int, "changed" bigint) returns int language plpgsql as $$
begin
  if "changed" <> "expected" then
    raise exception 'changed % of % rows: another write came first', "changed", "expected" using errcode = '40001';
  end if;
  return "changed";
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists "expect_rows"(int, bigint);`);
  }
}
