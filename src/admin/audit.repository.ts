import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** What an admin did, to what. */
export interface AuditEntryInput {
  actorId: number | null;
  actorEmail: string | null;
  action: string;
  targetId: number | null;
  targetEmail: string | null;
  details: Record<string, unknown>;
}

export interface AuditEntryRow {
  id: number;
  created_at: string;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  target_id: number | null;
  target_email: string | null;
  /** The details as JSON text. */
  details: string;
}

const ENTRY_COLUMNS = sql`"id", "created_at", "actor_id", "actor_email", "action", "target_id", "target_email", "details"::text as "details"`;

/** The audit log: one entry per admin action, written in the action's transaction; read newest first. */
export class AuditRepository {
  constructor(private readonly db: DataSource) {}

  async write(entry: AuditEntryInput): Promise<void> {
    await this.db.run(
      sql`insert into "audit_log" ("actor_id", "actor_email", "action", "target_id", "target_email", "details")
          values (${entry.actorId}, ${entry.actorEmail}, ${entry.action}, ${entry.targetId}, ${entry.targetEmail}, ${JSON.stringify(entry.details)}::jsonb)`,
    );
  }

  /** Entries `[offset, offset + limit)`, newest first, with how many there are. */
  async page(offset: number, limit: number): Promise<{ rows: AuditEntryRow[]; total: number }> {
    const [rows, [count]] = await Promise.all([
      this.db.rows<AuditEntryRow>(
        sql`select ${ENTRY_COLUMNS} from "audit_log" order by "id" desc limit ${limit} offset ${offset}`,
      ),
      this.db.rows<{ total: number }>(sql`select count(*)::int as "total" from "audit_log"`),
    ]);
    return { rows, total: count.total };
  }

  async byId(id: number): Promise<AuditEntryRow | null> {
    return (await this.db.row<AuditEntryRow>(sql`select ${ENTRY_COLUMNS} from "audit_log" where "id" = ${id}`)) ?? null;
  }
}
