import { Migration } from '@mikro-orm/migrations';

/**
 * The row-level triggers that serialize an account's joining a household (reading its owner's records from
 * then on) with that owner's changes. Leaving needs none: a change that still counts the member who leaves
 * moves their version for nothing, and one that no longer does is not theirs to read.
 */
const MEMBERSHIP_LOCKS: Array<[event: string, when: string]> = [
  ['insert', 'new."user_id" is not null'],
  ['update', 'new."user_id" is not null and new."user_id" is distinct from old."user_id"'],
];

/**
 * Data versions that only grow for each user and move only for the users a change concerns (issue 39).
 *
 * Before, a reader summed their own scope, scope 0 and the scopes of the owners whose households they joined:
 * leaving a household took the owner's part out of the sum, so a member's later writes could bring it back to
 * a value it had had (and an answer kept then, holding the owner's records, was served again); and a member
 * row of no account (`user_id` null) bumped scope 0, which every user reads.
 *
 * Now a user's version is their own scope and scope 0 alone (both only grow): a change to an owner's rows adds
 * one to the owner and to every account in the owner's household (they read what the owner shares), and
 * joining or leaving adds one to the member who joins or leaves (old and new `user_id` of an update); a member
 * row without an account concerns no one but the owner's household. Who is in a household is read after a
 * share lock on its row, and an account's joining takes that row for update first (a row-level trigger), so a
 * change of the owner's rows either counts a member who joins in the same moment or commits before they can
 * read it. Each member's version starts at the sum they read before, so no version goes down with this
 * migration either.
 */
export class Migration20261126090000_member_data_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "bump_data_versions"() returns trigger language plpgsql as $$
declare
  owners int[];
  readers int[];
begin
  -- Static statements per owner column, so that each keeps its plan.
  if TG_ARGV[0] = 'user_id' then
    select array_agg(distinct coalesce("user_id", 0)) into owners from "changed_rows";
  elsif TG_ARGV[0] = 'owner_id' then
    select array_agg(distinct coalesce("owner_id", 0)) into owners from "changed_rows";
  elsif TG_ARGV[0] = 'id' then
    select array_agg(distinct "id") into owners from "changed_rows";
  elsif TG_ARGV[0] = 'subscription' then
    select array_agg(distinct s."user_id") into owners from "changed_rows" c join "subscriptions" s on s."id" = c."subscription_id";
  elsif TG_ARGV[0] = 'member' then
    -- Who joined or left: what they read changed (not what their own household reads).
    if TG_OP = 'UPDATE' then
      select array_agg(distinct r."user_id") into readers
        from (select "user_id" from "changed_rows" union select "user_id" from "old_rows") r where r."user_id" is not null;
    else
      select array_agg(distinct "user_id") into readers from "changed_rows" where "user_id" is not null;
    end if;
  elsif exists (select 1 from "changed_rows") then
    readers := array[0];
  end if;
  if owners is not null then
    readers := owners;
    -- The accounts in the owners' households read what the owners share.
    perform 1 from "households" h where h."owner_id" = any(owners) order by h."id" for share;
    if found then
      select array_agg(distinct r) into readers
        from (select unnest(owners) union
              select m."user_id" from "households" h join "household_members" m on m."household_id" = h."id"
               where h."owner_id" = any(owners) and m."user_id" is not null) x(r);
    end if;
  end if;
  if readers is not null then
    insert into "data_versions" as d select r, pg_backend_pid() % 16, 1 from unnest(readers) r order by 1
      on conflict ("scope", "shard") do update set "version" = d."version" + 1;
  end if;
  return null;
end $$;`);
    this.addSql(`create function "lock_household_membership"() returns trigger language plpgsql as $$
begin
  perform 1 from "households" where "id" = new."household_id" for no key update;
  return new;
end $$;`);
    for (const [event, when] of MEMBERSHIP_LOCKS) {
      this.addSql(
        `create trigger "household_members_${event}_membership_lock" before ${event} on "household_members" for each row when (${when}) execute function "lock_household_membership"();`,
      );
    }
    for (const event of ['insert', 'update', 'delete'])
      this.addSql(`drop trigger "household_members_${event}_user_id_data_versions" on "household_members";`);
    this.addSql(
      `create trigger "household_members_insert_member_data_versions" after insert on "household_members" referencing new table as "changed_rows" for each statement execute function "bump_data_versions"('member');`,
    );
    this.addSql(
      `create trigger "household_members_update_member_data_versions" after update on "household_members" referencing old table as "old_rows" new table as "changed_rows" for each statement execute function "bump_data_versions"('member');`,
    );
    this.addSql(
      `create trigger "household_members_delete_member_data_versions" after delete on "household_members" referencing old table as "changed_rows" for each statement execute function "bump_data_versions"('member');`,
    );
    // Each member starts where the sum they read stood (their joined owners' scopes are no longer in it).
    this.addSql(`insert into "data_versions" as d ("scope", "shard", "version")
      select j."user_id", 0, sum(v."version")
        from (select distinct m."user_id", m."owner_id" from "household_members" m where m."user_id" is not null and m."owner_id" <> m."user_id") j
        join "data_versions" v on v."scope" = j."owner_id"
       group by j."user_id"
      on conflict ("scope", "shard") do update set "version" = d."version" + excluded."version";`);

    // A feed's Last-Modified: the data version it was given for, and that time (see CalendarFeedService.read).
    this.addSql(
      `alter table "calendar_feeds" add column "last_modified_version" bigint null, add column "last_modified_at" timestamp(6) null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "calendar_feeds" drop column "last_modified_version", drop column "last_modified_at";`);
    for (const [event] of MEMBERSHIP_LOCKS)
      this.addSql(`drop trigger "household_members_${event}_membership_lock" on "household_members";`);
    for (const event of ['insert', 'update', 'delete']) {
      this.addSql(`drop trigger "household_members_${event}_member_data_versions" on "household_members";`);
      this.addSql(
        `create trigger "household_members_${event}_user_id_data_versions" after ${event} on "household_members" referencing ${event === 'delete' ? 'old' : 'new'} table as "changed_rows" for each statement execute function "bump_data_versions"('user_id');`,
      );
    }
    this.addSql(`drop function "lock_household_membership"();`);
    this.addSql(`create or replace function "bump_data_versions"() returns trigger language plpgsql as $$
begin
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
  }
}
