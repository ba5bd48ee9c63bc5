import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** A user's TOTP secret as stored: sealed, and whether its enrolment was confirmed. */
export interface TwoFactorRow {
  sealed_secret: string;
  enabled: boolean;
  /** The time step of the last code accepted (bigint: a string), null before the first. */
  last_time_step: string | null;
}

const NOW = sql`(now() at time zone 'utc')`;

/** The two_factor and two_factor_recovery_codes tables (see the two_factor migration). */
export class TwoFactorRepository {
  constructor(private readonly db: DataSource) {}

  async secretOf(userId: number): Promise<TwoFactorRow | null> {
    const row = await this.db.row<TwoFactorRow>(
      sql`select "sealed_secret", "enabled_at" is not null as "enabled", "last_time_step"
            from "two_factor" where "user_id" = ${userId}`,
    );
    return row ?? null;
  }

  /** Whether two-factor is on, and how many recovery codes are left unspent. */
  async status(userId: number): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const row = await this.db.row<{ enabled: boolean; left: number }>(
      sql`select exists (select from "two_factor" where "user_id" = ${userId} and "enabled_at" is not null) as "enabled",
                 (select count(*)::int from "two_factor_recovery_codes" where "user_id" = ${userId} and "used_at" is null) as "left"`,
    );
    return { enabled: row?.enabled ?? false, recoveryCodesLeft: row?.left ?? 0 };
  }

  /** A new pending secret (replacing a pending one); false when two-factor is already on. */
  async startEnrolment(userId: number, sealedSecret: string): Promise<boolean> {
    const touched = await this.db.run(
      sql`insert into "two_factor" ("user_id", "sealed_secret") values (${userId}, ${sealedSecret})
          on conflict ("user_id") do update set "sealed_secret" = excluded."sealed_secret", "last_time_step" = null, "created_at" = ${NOW}
          where "two_factor"."enabled_at" is null`,
    );
    return touched > 0;
  }

  /**
   * Records that the code of time step `step` was used, if no code of this or a later step was: one statement,
   * so that of two concurrent uses of one code exactly one moves the step. `confirming`: the enrolment is
   * pending and this turns two-factor on; otherwise it must be on already.
   */
  async claimTimeStep(userId: number, step: number, confirming: boolean): Promise<boolean> {
    const touched = await this.db.run(
      sql`update "two_factor" set "last_time_step" = ${step}, "enabled_at" = coalesce("enabled_at", ${NOW})
           where "user_id" = ${userId} and ("enabled_at" is null) = ${confirming}
             and ("last_time_step" is null or "last_time_step" < ${step})`,
    );
    return touched > 0;
  }

  /** Replaces the user's recovery codes with these hashes (hex digits: an array literal needs no quoting). */
  async replaceRecoveryCodes(userId: number, hashes: string[]): Promise<void> {
    const hashList = `{${hashes.join(',')}}`;
    await this.db.run(sql`delete from "two_factor_recovery_codes" where "user_id" = ${userId}`);
    await this.db.run(
      sql`insert into "two_factor_recovery_codes" ("user_id", "code_hash") select ${userId}, unnest(${hashList}::text[])`,
    );
  }

  /** Spends the unspent recovery code of this hash; false when there is none (wrong, or spent already). */
  async spendRecoveryCode(userId: number, hash: string): Promise<boolean> {
    const touched = await this.db.run(
      sql`update "two_factor_recovery_codes" set "used_at" = ${NOW}
           where "user_id" = ${userId} and "code_hash" = ${hash} and "used_at" is null
             and exists (select from "two_factor" where "user_id" = ${userId} and "enabled_at" is not null)`,
    );
    return touched > 0;
  }

  /** Turns two-factor off: the secret and the recovery codes go. */
  async remove(userId: number): Promise<void> {
    await this.db.run(sql`delete from "two_factor_recovery_codes" where "user_id" = ${userId}`);
    await this.db.run(sql`delete from "two_factor" where "user_id" = ${userId}`);
  }

  /** Whether any account has two-factor on (then the key its secrets are sealed with must be set). */
  async anyEnabled(): Promise<boolean> {
    const row = await this.db.row<{ found: boolean }>(
      sql`select exists (select from "two_factor" where "enabled_at" is not null) as "found"`,
    );
    return row?.found ?? false;
  }
}
