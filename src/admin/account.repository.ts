import sql from 'sql-template-tag';

import { ACTIVE_STATUS, ADMIN_ROLE, DISABLED_STATUS } from '../auth/user.entity';
import type { DataSource } from '../platform/db/data-source';

/** An account as the admin sees it. */
export interface AccountRow {
  id: number;
  email: string;
  name: string;
  created_at: string;
  /** When one of its tokens was last used or issued; null when it never signed in. */
  last_seen_at: string | null;
  /** Whether it signs in with a second factor. */
  two_factor_enabled: boolean;
  /** Its records (add-ons included), deleted ones aside. */
  record_count: number;
  status: number;
  role_id: number;
}

const ACCOUNT_COLUMNS = sql`u."id", u."email", u."name", u."created_at", u."status", u."role_id",
  (select max(coalesce(t."last_used_at", t."created_at")) from "access_tokens" t where t."user_id" = u."id") as "last_seen_at",
  exists (select 1 from "two_factor" f where f."user_id" = u."id" and f."enabled_at" is not null) as "two_factor_enabled",
  (select count(*)::int from "subscriptions" s where s."user_id" = u."id" and s."deleted_at" is null) as "record_count"`;

/** The accounts of the instance, for its admin: listing, disabling, enabling, deleting, naming admins. */
export class AccountRepository {
  constructor(private readonly db: DataSource) {}

  /** Accounts `[offset, offset + limit)`, oldest first, with how many there are. */
  async page(offset: number, limit: number): Promise<{ rows: AccountRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.rows<AccountRow>(
        sql`select ${ACCOUNT_COLUMNS} from "users" u order by u."id" limit ${limit} offset ${offset}`,
      ),
      this.db.rows<{ total: number }>(sql`select count(*)::int as "total" from "users"`),
    ]);
    return { rows, total: count.total };
  }

  async byId(id: number): Promise<AccountRow | null> {
    return (await this.db.row<AccountRow>(sql`select ${ACCOUNT_COLUMNS} from "users" u where u."id" = ${id}`)) ?? null;
  }

  /** The account, locked until the transaction ends (a change to it waits, and so does another admin's check). */
  async lock(id: number): Promise<AccountRow | null> {
    const row = await this.db.row<{ id: number }>(sql`select "id" from "users" where "id" = ${id} for update`);
    return row ? this.byId(id) : null;
  }

  /** The active admins' ids, locked: two admins shutting each other out at once take turns here. */
  async lockActiveAdmins(): Promise<number[]> {
    const rows = await this.db.rows<{ id: number }>(
      sql`select "id" from "users" where "role_id" = ${ADMIN_ROLE} and "status" = ${ACTIVE_STATUS} order by "id" for update`,
    );
    return rows.map((row) => row.id);
  }

  /** The user's id and e-mail when they are an active admin; null otherwise. */
  async activeAdmin(userId: number): Promise<{ id: number; email: string } | null> {
    const row = await this.db.row<{ id: number; email: string }>(
      sql`select "id", "email" from "users" where "id" = ${userId} and "role_id" = ${ADMIN_ROLE} and "status" = ${ACTIVE_STATUS}`,
    );
    return row ?? null;
  }

  /** Marks the account disabled: it cannot sign in (its tokens are the access-token repository's to revoke). */
  async disable(id: number): Promise<void> {
    await this.db.run(
      sql`update "users" set "status" = ${DISABLED_STATUS}, "updated_at" = now() at time zone 'utc' where "id" = ${id}`,
    );
  }

  async enable(id: number): Promise<void> {
    await this.db.run(
      sql`update "users" set "status" = ${ACTIVE_STATUS}, "updated_at" = now() at time zone 'utc' where "id" = ${id}`,
    );
  }

  /** Deletes the account; every row of its data goes with it through the foreign keys' cascades. */
  async delete(id: number): Promise<void> {
    await this.db.run(sql`delete from "users" where "id" = ${id}`);
  }

  /** Makes the account of this e-mail address an admin; its id and e-mail, or null when none has it. */
  async makeAdmin(email: string): Promise<{ id: number; email: string } | null> {
    const row = await this.db.row<{ id: number; email: string }>(
      sql`update "users" set "role_id" = ${ADMIN_ROLE}, "updated_at" = now() at time zone 'utc' where "email" = ${email} returning "id", "email"`,
    );
    return row ?? null;
  }
}
