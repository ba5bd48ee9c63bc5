import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';
import { intArray } from '../platform/db/statements';
import type { SplitMode } from './household.entity';

/** A household as one of its people sees it: `member_id` and `can_edit` are the caller's own. */
export interface MembershipRow {
  id: number;
  name: string;
  owner_id: number;
  owner_name: string;
  member_id: number;
  can_edit: boolean;
}

export interface MemberRow {
  id: number;
  household_id: number;
  name: string;
  email: string | null;
  user_id: number | null;
  can_edit: boolean;
  invited: boolean;
  joined_at: string | null;
}

/** A shared record's payer and split, each member's weight in split order. */
export interface SharingRow {
  subscription_id: number;
  household_id: number;
  payer_id: number;
  payer_name: string;
  split_mode: SplitMode;
  price: string;
  /** The record's currency (its price_type). */
  currency: string;
  splits: Array<{ member_id: number; name: string; weight: string }>;
}

const MEMBERSHIP_COLUMNS = sql`h."id", h."name", h."owner_id", u."name" as "owner_name", m."id" as "member_id", m."can_edit" or h."owner_id" = m."user_id" as "can_edit"`;
/** A user's member rows (`m`) with their household (`h`) and its owner (`u`). */
const MEMBERSHIPS = sql`"household_members" m join "households" h on h."id" = m."household_id" join "users" u on u."id" = h."owner_id"`;
const MEMBER_COLUMNS = sql`"id", "household_id", "name", "email", "user_id", "can_edit", "invitation_hash" is not null as "invited", "joined_at"`;

/** The one door to households, their members and the records shared in them; membership is the access check. */
export class HouseholdRepository {
  constructor(private readonly db: DataSource) {}

  /** The households the user owns or joined, their own first. */
  memberships(userId: number): Promise<MembershipRow[]> {
    return this.db.rows<MembershipRow>(
      sql`select ${MEMBERSHIP_COLUMNS} from ${MEMBERSHIPS} where m."user_id" = ${userId} order by h."owner_id" <> m."user_id", h."id"`,
    );
  }

  /** The user's membership of one household; null: not theirs to see. */
  async membership(userId: number, householdId: number): Promise<MembershipRow | null> {
    const row = await this.db.row<MembershipRow>(
      sql`select ${MEMBERSHIP_COLUMNS} from ${MEMBERSHIPS} where m."user_id" = ${userId} and h."id" = ${householdId}`,
    );
    return row ?? null;
  }

  /** The owner of a record shared in a household the user is a member of (`edit`: with edit rights), or null. */
  async sharedRecordOwner(userId: number, subscriptionId: number, edit: boolean): Promise<number | null> {
    const row = await this.db.row<{ owner_id: number }>(
      sql`select h."owner_id" from "subscription_shares" sh join "households" h on h."id" = sh."household_id"
         join "household_members" m on m."household_id" = h."id" and m."user_id" = ${userId}
        where sh."subscription_id" = ${subscriptionId} and (not ${edit}::boolean or m."can_edit")`,
    );
    return row?.owner_id ?? null;
  }

  /** Makes the owner's household, with the owner as its first member; answers its id. */
  async create(ownerId: number, name: string): Promise<number> {
    const row = await this.db.row<{ household_id: number }>(
      sql`with "made" as (insert into "households" ("owner_id", "name", "updated_at") values (${ownerId}, ${name}, now() at time zone 'utc') returning "id", "owner_id")
       insert into "household_members" ("household_id", "owner_id", "name", "email", "user_id", "joined_at", "updated_at")
       select m."id", m."owner_id", u."name", u."email", u."id", now() at time zone 'utc', now() at time zone 'utc' from "made" m join "users" u on u."id" = m."owner_id"
       returning "household_id"`,
    );
    return row!.household_id;
  }

  /** The id of the owner's household, or null. */
  async ownedId(ownerId: number): Promise<number | null> {
    const row = await this.db.row<{ id: number }>(sql`select "id" from "households" where "owner_id" = ${ownerId}`);
    return row?.id ?? null;
  }

  async rename(ownerId: number, name: string): Promise<boolean> {
    const rows = await this.db.rows(
      sql`update "households" set "name" = ${name}, "updated_at" = now() at time zone 'utc' where "owner_id" = ${ownerId} returning "id"`,
    );
    return rows.length > 0;
  }

  /** Removes the owner's household with its members and shares (the records stay, unshared). */
  async remove(ownerId: number): Promise<boolean> {
    return (await this.db.rows(sql`delete from "households" where "owner_id" = ${ownerId} returning "id"`)).length > 0;
  }

  members(householdIds: readonly number[]): Promise<MemberRow[]> {
    return this.db.rows<MemberRow>(
      sql`select ${MEMBER_COLUMNS} from "household_members" where "household_id" = any(${intArray(householdIds)}::int[]) order by "id"`,
    );
  }

  /** Adds a member to the owner's household (invited when an invitation hash is given). */
  async addMember(
    ownerId: number,
    member: { name: string; email: string | null; canEdit: boolean; invitationHash: string | null },
  ): Promise<MemberRow> {
    const row = await this.db.row<MemberRow>(
      sql`insert into "household_members" ("household_id", "owner_id", "name", "email", "can_edit", "invitation_hash", "updated_at")
       select h."id", h."owner_id", ${member.name}, ${member.email}, ${member.canEdit}, ${member.invitationHash}, now() at time zone 'utc' from "households" h where h."owner_id" = ${ownerId}
       returning ${MEMBER_COLUMNS}`,
    );
    return row!;
  }

  /** Changes a member of the owner's household; null when there is no such member. */
  async updateMember(
    ownerId: number,
    memberId: number,
    change: { name?: string; canEdit?: boolean; email?: string; invitationHash?: string },
  ): Promise<MemberRow | null> {
    // Null keeps a column as it is.
    const { name = null, canEdit = null, email = null, invitationHash = null } = change;
    const row = await this.db.row<MemberRow>(
      sql`update "household_members" set "name" = coalesce(${name}, "name"), "can_edit" = coalesce(${canEdit}, "can_edit"), "email" = coalesce(${email}, "email"),
              "invitation_hash" = coalesce(${invitationHash}, "invitation_hash"), "updated_at" = now() at time zone 'utc'
        where "id" = ${memberId} and "owner_id" = ${ownerId} returning ${MEMBER_COLUMNS}`,
    );
    return row ?? null;
  }

  /** A member of the owner's household, locked for the rest of the transaction. */
  async lockMember(ownerId: number, memberId: number): Promise<MemberRow | null> {
    const row = await this.db.row<MemberRow>(
      sql`select ${MEMBER_COLUMNS} from "household_members" m where m."id" = ${memberId} and m."owner_id" = ${ownerId} for update`,
    );
    return row ?? null;
  }

  /** The ids of the records whose payer or split names the member, locked (in id order) for the rest of the transaction. */
  async lockRecordsNaming(memberId: number): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select s."id" from "subscriptions" s
        where s."id" in (select "subscription_id" from "subscription_shares" where "payer_id" = ${memberId}
                         union select "subscription_id" from "subscription_splits" where "member_id" = ${memberId})
        order by s."id" for update`,
    );
    return rows.map((row) => row.id);
  }

  async removeMember(memberId: number): Promise<void> {
    await this.db.run(sql`delete from "household_members" where "id" = ${memberId}`);
  }

  /**
   * Joins the user to the household whose invitation has this code's hash and the user's e-mail (the code is
   * used up); null when there is none, or the user already belongs to it.
   */
  async claimInvitation(userId: number, invitationHash: string): Promise<number | null> {
    const row = await this.db.row<{ household_id: number }>(
      sql`update "household_members" m set "user_id" = u."id", "invitation_hash" = null, "joined_at" = now() at time zone 'utc', "updated_at" = now() at time zone 'utc'
         from "users" u
        where u."id" = ${userId} and m."invitation_hash" = ${invitationHash} and lower(m."email") = lower(u."email")
          and not exists (select 1 from "household_members" o where o."household_id" = m."household_id" and o."user_id" = u."id")
        returning m."household_id"`,
    );
    return row?.household_id ?? null;
  }

  /** The user leaves a household they joined (not their own): their member row stays, by name, for its shares. */
  async leave(userId: number, householdId: number): Promise<boolean> {
    const rows = await this.db.rows(
      sql`update "household_members" set "user_id" = null, "joined_at" = null, "can_edit" = false, "updated_at" = now() at time zone 'utc'
        where "household_id" = ${householdId} and "user_id" = ${userId} and "owner_id" <> "user_id" returning "id"`,
    );
    return rows.length > 0;
  }

  /** The live record of `ownerId` as sharing checks it (its price), locked for the rest of the transaction; or null. */
  async shareableRecord(ownerId: number, subscriptionId: number): Promise<{ price: string } | null> {
    const row = await this.db.row<{ price: string }>(
      sql`select "price"::text as "price" from "subscriptions" where "id" = ${subscriptionId} and "user_id" = ${ownerId} and "deleted_at" is null for update`,
    );
    return row ?? null;
  }

  /** Shares a record in a household, or changes its payer and split: the whole split is replaced. */
  async putSharing(sharing: {
    subscriptionId: number;
    householdId: number;
    payerId: number;
    mode: SplitMode;
    splits: ReadonlyArray<{ memberId: number; weight: string }>;
  }): Promise<void> {
    const { subscriptionId } = sharing;
    await this.db.run(
      sql`insert into "subscription_shares" ("subscription_id", "household_id", "payer_id", "split_mode", "updated_at")
       values (${subscriptionId}, ${sharing.householdId}, ${sharing.payerId}, ${sharing.mode}, now() at time zone 'utc')
       on conflict ("subscription_id") do update set "household_id" = excluded."household_id", "payer_id" = excluded."payer_id",
          "split_mode" = excluded."split_mode", "updated_at" = excluded."updated_at"`,
    );
    await this.db.run(sql`delete from "subscription_splits" where "subscription_id" = ${subscriptionId}`);
    const splits = sharing.splits.map((split, position) => ({
      member_id: split.memberId,
      weight: split.weight,
      position,
    }));
    await this.db.run(
      sql`insert into "subscription_splits" ("subscription_id", "member_id", "weight", "position", "updated_at")
       select ${subscriptionId}, s."member_id", s."weight", s."position", now() at time zone 'utc'
         from jsonb_to_recordset(${JSON.stringify(splits)}::jsonb) as s("member_id" int, "weight" numeric, "position" int)`,
    );
  }

  /** Stops sharing a record; whether it was shared. */
  async removeSharing(subscriptionId: number): Promise<boolean> {
    await this.db.run(sql`delete from "subscription_splits" where "subscription_id" = ${subscriptionId}`);
    const removed = await this.db.rows(
      sql`delete from "subscription_shares" where "subscription_id" = ${subscriptionId} returning "id"`,
    );
    return removed.length > 0;
  }

  /** The payer and split of each of these records that is shared. */
  sharingOf(subscriptionIds: readonly number[]): Promise<SharingRow[]> {
    return this.db.rows<SharingRow>(
      sql`select sh."subscription_id", sh."household_id", sh."payer_id", pm."name" as "payer_name", sh."split_mode", s."price"::text as "price", s."price_type" as "currency",
              coalesce((select jsonb_agg(jsonb_build_object('member_id', sp."member_id", 'name', m."name", 'weight', sp."weight"::text) order by sp."position")
                          from "subscription_splits" sp join "household_members" m on m."id" = sp."member_id"
                         where sp."subscription_id" = sh."subscription_id"), '[]'::jsonb) as "splits"
         from "subscription_shares" sh join "household_members" pm on pm."id" = sh."payer_id" join "subscriptions" s on s."id" = sh."subscription_id"
        where sh."subscription_id" = any(${intArray(subscriptionIds)}::int[])`,
    );
  }

  /** The ids of the live records shared in a household, and their owner. */
  async sharedRecordIds(householdId: number): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select s."id" from "subscription_shares" sh join "subscriptions" s on s."id" = sh."subscription_id" and s."deleted_at" is null
        where sh."household_id" = ${householdId} order by s."id"`,
    );
    return rows.map((row) => row.id);
  }
}
