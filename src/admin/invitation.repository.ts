import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

export interface InvitationRow {
  id: number;
  email: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  /** Whether it is past its expiry now (the database's clock). */
  expired: boolean;
}

const INVITATION_COLUMNS = sql`"id", "email", "created_at", "expires_at", "used_at", "revoked_at", "expires_at" <= now() at time zone 'utc' as "expired"`;
/** Neither used, revoked nor expired. */
const USABLE = sql`"used_at" is null and "revoked_at" is null and "expires_at" > now() at time zone 'utc'`;

/** Invitations to sign up: only each code's sha256 is kept. */
export class InvitationRepository {
  constructor(private readonly db: DataSource) {}

  async create(codeHash: string, email: string | null, createdBy: number, validDays: number): Promise<InvitationRow> {
    return (await this.db.row<InvitationRow>(
      sql`insert into "invitations" ("code_hash", "email", "created_by", "expires_at")
          values (${codeHash}, ${email}, ${createdBy}, now() at time zone 'utc' + make_interval(days => ${validDays}::int))
          returning ${INVITATION_COLUMNS}`,
    ))!;
  }

  /** Invitations `[offset, offset + limit)`, newest first, with how many there are. */
  async page(offset: number, limit: number): Promise<{ rows: InvitationRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.rows<InvitationRow>(
        sql`select ${INVITATION_COLUMNS} from "invitations" order by "id" desc limit ${limit} offset ${offset}`,
      ),
      this.db.rows<{ total: number }>(sql`select count(*)::int as "total" from "invitations"`),
    ]);
    return { rows, total: count.total };
  }

  async byId(id: number): Promise<InvitationRow | null> {
    return (
      (await this.db.row<InvitationRow>(sql`select ${INVITATION_COLUMNS} from "invitations" where "id" = ${id}`)) ??
      null
    );
  }

  /** Revokes an invitation not used yet; the row, or null when there is none to revoke. */
  async revoke(id: number): Promise<InvitationRow | null> {
    const row = await this.db.row<InvitationRow>(
      sql`update "invitations" set "revoked_at" = now() at time zone 'utc'
           where "id" = ${id} and "used_at" is null and "revoked_at" is null returning ${INVITATION_COLUMNS}`,
    );
    return row ?? null;
  }

  /**
   * The usable invitation of this code hash, locked until the transaction ends: a second sign-up with the same
   * code waits, then finds it used.
   */
  async lockUsable(codeHash: string): Promise<InvitationRow | null> {
    const row = await this.db.row<InvitationRow>(
      sql`select ${INVITATION_COLUMNS} from "invitations" where "code_hash" = ${codeHash} and ${USABLE} for update`,
    );
    return row ?? null;
  }

  async markUsed(id: number, userId: number): Promise<void> {
    await this.db.run(
      sql`update "invitations" set "used_at" = now() at time zone 'utc', "used_by" = ${userId} where "id" = ${id}`,
    );
  }
}
