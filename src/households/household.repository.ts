import { intArray, rowsOf, type StatementTarget } from '../platform/db/statements';
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
  splits: Array<{ member_id: number; name: string; weight: string }>;
}

const MEMBERSHIP_COLUMNS = `h."id", h."name", h."owner_id", u."name" as "owner_name", m."id" as "member_id", m."can_edit" or h."owner_id" = m."user_id" as "can_edit"`;
/** A user's member rows (`m`) with their household (`h`) and its owner (`u`). */
const MEMBERSHIPS = `"household_members" m join "households" h on h."id" = m."household_id" join "users" u on u."id" = h."owner_id"`;
const MEMBER_COLUMNS = `"id", "household_id", "name", "email", "user_id", "can_edit", "invitation_hash" is not null as "invited", "joined_at"`;

/** The one door to households, their members and the records shared in them; membership is the access check. */
export const householdRepository = {
  /** The households the user owns or joined, their own first. */
  memberships(em: StatementTarget, userId: number): Promise<MembershipRow[]> {
    return rowsOf<MembershipRow>(
      em,
      `select ${MEMBERSHIP_COLUMNS} from ${MEMBERSHIPS} where m."user_id" = ? order by h."owner_id" <> m."user_id", h."id"`,
      [userId],
    );
  },

  /** The user's membership of one household; null: not theirs to see. */
  async membership(em: StatementTarget, userId: number, householdId: number): Promise<MembershipRow | null> {
    const [row] = await rowsOf<MembershipRow>(
      em,
      `select ${MEMBERSHIP_COLUMNS} from ${MEMBERSHIPS} where m."user_id" = ? and h."id" = ?`,
      [userId, householdId],
    );
    return row ?? null;
  },

  /** The owner of a record shared in a household the user is a member of (`edit`: with edit rights), or null. */
  async sharedRecordOwner(
    em: StatementTarget,
    userId: number,
    subscriptionId: number,
    edit: boolean,
  ): Promise<number | null> {
    const [row] = await rowsOf<{ owner_id: number }>(
      em,
      `select h."owner_id" from "subscription_shares" sh join "households" h on h."id" = sh."household_id"
         join "household_members" m on m."household_id" = h."id" and m."user_id" = ?
        where sh."subscription_id" = ? and (not ?::boolean or m."can_edit")`,
      [userId, subscriptionId, edit],
    );
    return row?.owner_id ?? null;
  },

  /** Makes the owner's household, with the owner as its first member; answers its id. */
  async create(em: StatementTarget, ownerId: number, name: string): Promise<number> {
    const [row] = await rowsOf<{ household_id: number }>(
      em,
      `with "made" as (insert into "households" ("owner_id", "name", "updated_at") values (?, ?, now() at time zone 'utc') returning "id", "owner_id")
       insert into "household_members" ("household_id", "owner_id", "name", "email", "user_id", "joined_at", "updated_at")
       select m."id", m."owner_id", u."name", u."email", u."id", now() at time zone 'utc', now() at time zone 'utc' from "made" m join "users" u on u."id" = m."owner_id"
       returning "household_id"`,
      [ownerId, name],
    );
    return row.household_id;
  },

  /** The id of the owner's household, or null. */
  async ownedId(em: StatementTarget, ownerId: number): Promise<number | null> {
    const [row] = await rowsOf<{ id: number }>(em, `select "id" from "households" where "owner_id" = ?`, [ownerId]);
    return row?.id ?? null;
  },

  async rename(em: StatementTarget, ownerId: number, name: string): Promise<boolean> {
    const rows = await rowsOf(
      em,
      `update "households" set "name" = ?, "updated_at" = now() at time zone 'utc' where "owner_id" = ? returning "id"`,
      [name, ownerId],
    );
    return rows.length > 0;
  },

  /** Removes the owner's household with its members and shares (the records stay, unshared). */
  async remove(em: StatementTarget, ownerId: number): Promise<boolean> {
    return (await rowsOf(em, `delete from "households" where "owner_id" = ? returning "id"`, [ownerId])).length > 0;
  },

  members(em: StatementTarget, householdIds: readonly number[]): Promise<MemberRow[]> {
    return rowsOf<MemberRow>(
      em,
      `select ${MEMBER_COLUMNS} from "household_members" where "household_id" = any(?::int[]) order by "id"`,
      [intArray(householdIds)],
    );
  },

  /** Adds a member to the owner's household (invited when an invitation hash is given). */
  async addMember(
    em: StatementTarget,
    ownerId: number,
    member: { name: string; email: string | null; canEdit: boolean; invitationHash: string | null },
  ): Promise<MemberRow> {
    const [row] = await rowsOf<MemberRow>(
      em,
      `insert into "household_members" ("household_id", "owner_id", "name", "email", "can_edit", "invitation_hash", "updated_at")
       select h."id", h."owner_id", ?, ?, ?, ?, now() at time zone 'utc' from "households" h where h."owner_id" = ?
       returning ${MEMBER_COLUMNS}`,
      [member.name, member.email, member.canEdit, member.invitationHash, ownerId],
    );
    return row;
  },

  /** Changes a member of the owner's household; null when there is no such member. */
  async updateMember(
    em: StatementTarget,
    ownerId: number,
    memberId: number,
    change: { name?: string; canEdit?: boolean; email?: string; invitationHash?: string },
  ): Promise<MemberRow | null> {
    const [row] = await rowsOf<MemberRow>(
      em,
      `update "household_members" set "name" = coalesce(?, "name"), "can_edit" = coalesce(?, "can_edit"), "email" = coalesce(?, "email"),
              "invitation_hash" = coalesce(?, "invitation_hash"), "updated_at" = now() at time zone 'utc'
        where "id" = ? and "owner_id" = ? returning ${MEMBER_COLUMNS}`,
      [
        change.name ?? null,
        change.canEdit ?? null,
        change.email ?? null,
        change.invitationHash ?? null,
        memberId,
        ownerId,
      ],
    );
    return row ?? null;
  },

  /** A member of the owner's household, locked for the rest of the transaction. */
  async lockMember(em: StatementTarget, ownerId: number, memberId: number): Promise<MemberRow | null> {
    const [row] = await rowsOf<MemberRow>(
      em,
      `select ${MEMBER_COLUMNS} from "household_members" m where m."id" = ? and m."owner_id" = ? for update`,
      [memberId, ownerId],
    );
    return row ?? null;
  },

  /** The ids of the records whose payer or split names the member, locked (in id order) for the rest of the transaction. */
  async lockRecordsNaming(em: StatementTarget, memberId: number): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `select s."id" from "subscriptions" s
        where s."id" in (select "subscription_id" from "subscription_shares" where "payer_id" = ?
                         union select "subscription_id" from "subscription_splits" where "member_id" = ?)
        order by s."id" for update`,
      [memberId, memberId],
    );
    return rows.map((row) => row.id);
  },

  async removeMember(em: StatementTarget, memberId: number): Promise<void> {
    await rowsOf(em, `delete from "household_members" where "id" = ?`, [memberId]);
  },

  /**
   * Joins the user to the household whose invitation has this code's hash and the user's e-mail (the code is
   * used up); null when there is none, or the user already belongs to it.
   */
  async claimInvitation(em: StatementTarget, userId: number, invitationHash: string): Promise<number | null> {
    const [row] = await rowsOf<{ household_id: number }>(
      em,
      `update "household_members" m set "user_id" = u."id", "invitation_hash" = null, "joined_at" = now() at time zone 'utc', "updated_at" = now() at time zone 'utc'
         from "users" u
        where u."id" = ? and m."invitation_hash" = ? and lower(m."email") = lower(u."email")
          and not exists (select 1 from "household_members" o where o."household_id" = m."household_id" and o."user_id" = u."id")
        returning m."household_id"`,
      [userId, invitationHash],
    );
    return row?.household_id ?? null;
  },

  /** The user leaves a household they joined (not their own): their member row stays, by name, for its shares. */
  async leave(em: StatementTarget, userId: number, householdId: number): Promise<boolean> {
    const rows = await rowsOf(
      em,
      `update "household_members" set "user_id" = null, "joined_at" = null, "can_edit" = false, "updated_at" = now() at time zone 'utc'
        where "household_id" = ? and "user_id" = ? and "owner_id" <> "user_id" returning "id"`,
      [householdId, userId],
    );
    return rows.length > 0;
  },

  /** The live record of `ownerId` as sharing checks it (its price), locked for the rest of the transaction; or null. */
  async shareableRecord(
    em: StatementTarget,
    ownerId: number,
    subscriptionId: number,
  ): Promise<{ price: string } | null> {
    const [row] = await rowsOf<{ price: string }>(
      em,
      `select "price"::text as "price" from "subscriptions" where "id" = ? and "user_id" = ? and "deleted_at" is null for update`,
      [subscriptionId, ownerId],
    );
    return row ?? null;
  },

  /** Shares a record in a household, or changes its payer and split: the whole split is replaced. */
  async putSharing(
    em: StatementTarget,
    sharing: {
      subscriptionId: number;
      householdId: number;
      payerId: number;
      mode: SplitMode;
      splits: ReadonlyArray<{ memberId: number; weight: string }>;
    },
  ): Promise<void> {
    await rowsOf(
      em,
      `insert into "subscription_shares" ("subscription_id", "household_id", "payer_id", "split_mode", "updated_at") values (?, ?, ?, ?, now() at time zone 'utc')
       on conflict ("subscription_id") do update set "household_id" = excluded."household_id", "payer_id" = excluded."payer_id",
          "split_mode" = excluded."split_mode", "updated_at" = excluded."updated_at"`,
      [sharing.subscriptionId, sharing.householdId, sharing.payerId, sharing.mode],
    );
    await rowsOf(em, `delete from "subscription_splits" where "subscription_id" = ?`, [sharing.subscriptionId]);
    await rowsOf(
      em,
      `insert into "subscription_splits" ("subscription_id", "member_id", "weight", "position", "updated_at")
       select ?, s."member_id", s."weight", s."position", now() at time zone 'utc'
         from jsonb_to_recordset(?::jsonb) as s("member_id" int, "weight" numeric, "position" int)`,
      [
        sharing.subscriptionId,
        JSON.stringify(
          sharing.splits.map((split, position) => ({ member_id: split.memberId, weight: split.weight, position })),
        ),
      ],
    );
  },

  /** Stops sharing a record; whether it was shared. */
  async removeSharing(em: StatementTarget, subscriptionId: number): Promise<boolean> {
    await rowsOf(em, `delete from "subscription_splits" where "subscription_id" = ?`, [subscriptionId]);
    return (
      (
        await rowsOf(em, `delete from "subscription_shares" where "subscription_id" = ? returning "id"`, [
          subscriptionId,
        ])
      ).length > 0
    );
  },

  /** The payer and split of each of these records that is shared. */
  sharingOf(em: StatementTarget, subscriptionIds: readonly number[]): Promise<SharingRow[]> {
    return rowsOf<SharingRow>(
      em,
      `select sh."subscription_id", sh."household_id", sh."payer_id", pm."name" as "payer_name", sh."split_mode", s."price"::text as "price",
              coalesce((select jsonb_agg(jsonb_build_object('member_id', sp."member_id", 'name', m."name", 'weight', sp."weight"::text) order by sp."position")
                          from "subscription_splits" sp join "household_members" m on m."id" = sp."member_id"
                         where sp."subscription_id" = sh."subscription_id"), '[]'::jsonb) as "splits"
         from "subscription_shares" sh join "household_members" pm on pm."id" = sh."payer_id" join "subscriptions" s on s."id" = sh."subscription_id"
        where sh."subscription_id" = any(?::int[])`,
      [intArray(subscriptionIds)],
    );
  },

  /** The ids of the live records shared in a household, and their owner. */
  async sharedRecordIds(em: StatementTarget, householdId: number): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      em,
      `select s."id" from "subscription_shares" sh join "subscriptions" s on s."id" = sh."subscription_id" and s."deleted_at" is null
        where sh."household_id" = ? order by s."id"`,
      [householdId],
    );
    return rows.map((row) => row.id);
  },
};
