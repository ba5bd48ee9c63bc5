import { Migration } from '@mikro-orm/migrations';

/** The tables answers of records read, and whose rows each of their rows belongs to (see the function). */
const VERSIONED_TABLES: Array<[table: string, owner: 'user_id' | 'owner_id' | 'id' | 'subscription' | 'global']> = [
  ['subscriptions', 'user_id'],
  ['subscription_tags', 'subscription'],
  ['subscription_alerts', 'subscription'],
  ['tags', 'user_id'],
  ['folders', 'user_id'],
  ['payment_modes', 'user_id'],
  ['product_categories', 'user_id'],
  ['alerts', 'user_id'],
  ['products', 'owner_id'],
  ['users', 'id'],
  ['exchange_rates', 'global'],
];

/**
 * A version of each user's data, so that an answer made from it can be kept and served again until the data
 * changes. Every committed change to a table those answers read adds one to its owner's version (scope 0:
 * rows of no owner, which every user reads); a reader sums its scope and scope 0. Sums only grow, so a
 * reader that reads the version before the data never keeps data older than the version it keeps it under.
 * Each connection adds to a shard of its own (its backend pid modulo 16), so concurrent writes of one user
 * seldom wait on one row; triggers, not the writes, do it, so no write path (the sweep, the CLI, an admin's
 * SQL) can forget.
 */
export class Migration20261124130000_data_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "data_versions" ("scope" int not null, "shard" smallint not null, "version" bigint not null, constraint "data_versions_pkey" primary key ("scope", "shard"));`,
    );
    this.addSql(`create function "bump_data_versions"() returns trigger language plpgsql as $$
begin
  -- Static statements per owner column, so that each keeps its plan.
  if TG_ARGV[0] = 'user_id' then
    insert into "data_versions" as d select distinct coalesce("user_id", 0), pg_backend_pid() % 16, 1 from "changed_rows" order by 1
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  elsif TG_ARGV[0] = 'owner_id' then
    insert into "data_versions" as d select distinct coalesce("owner_id", 0), pg_backend_pid() % 16, 1 from "changed_rows" order by 1
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  elsif TG_ARGV[0] = 'id' then
    insert into "data_versions" as d select distinct "id", pg_backend_pid() % 16, 1 from "changed_rows" order by 1
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  elsif TG_ARGV[0] = 'subscription' then
    insert into "data_versions" as d
      select distinct s."user_id", pg_backend_pid() % 16, 1 from "changed_rows" c join "subscriptions" s on s."id" = c."subscription_id" order by 1
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  else
    insert into "data_versions" as d select 0, pg_backend_pid() % 16, 1 where exists (select 1 from "changed_rows")
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  end if;
  return null;
end $$;`);
    for (const [table, owner] of VERSIONED_TABLES) {
      for (const [event, rows] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ]) {
        this.addSql(
          `create trigger "${table}_${event}_data_versions" after ${event} on "${table}" referencing ${rows} table as "changed_rows" for each statement execute function "bump_data_versions"('${owner}');`,
        );
      }
    }
  }

  override async down(): Promise<void> {
    for (const [table] of VERSIONED_TABLES) {
      for (const event of ['insert', 'update', 'delete'])
        this.addSql(`drop trigger if exists "${table}_${event}_data_versions" on "${table}";`);
    }
    this.addSql(`drop function if exists "bump_data_versions"();`);
    this.addSql(`drop table if exists "data_versions";`);
  }
}
