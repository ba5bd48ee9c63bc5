import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** The password_resets table: reset links by the hash of their token. Times are UTC timestamps of the service's clock. */
export class PasswordResetRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * A link for the active account of this e-mail address, if there is one: one statement whether or not there
   * is, so that both take the same path. Links expired a day ago go with it. Answers whether one was made.
   */
  async createForEmail(email: string, tokenHash: string, now: string, expiresAt: string): Promise<boolean> {
    const made = await this.db.run(
      sql`with "swept" as (delete from "password_resets" where "expires_at" < ${now}::timestamp - interval '1 day')
          insert into "password_resets" ("user_id", "token_hash", "expires_at")
          select "id", ${tokenHash}, ${expiresAt}::timestamp from "users" where "email" = ${email} and "status" = 1`,
    );
    return made > 0;
  }

  /**
   * Uses the live link with this token hash (unused, unexpired, of an active account), answering its user; null
   * when there is none. Of two concurrent uses, the second waits on the row and then finds it used.
   */
  async use(tokenHash: string, now: string): Promise<number | null> {
    const [used] = await this.db.rows<{ user_id: number }>(
      sql`update "password_resets" r set "used_at" = ${now}::timestamp
            from "users" u
           where r."token_hash" = ${tokenHash} and r."used_at" is null and r."expires_at" > ${now}::timestamp
             and u."id" = r."user_id" and u."status" = 1
       returning r."user_id"`,
    );
    return used?.user_id ?? null;
  }

  /** Voids the user's links still unused (their password was just set). */
  async voidUnused(userId: number, now: string): Promise<void> {
    await this.db.run(
      sql`update "password_resets" set "used_at" = ${now}::timestamp where "user_id" = ${userId} and "used_at" is null`,
    );
  }
}
