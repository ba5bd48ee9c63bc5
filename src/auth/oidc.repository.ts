import sql from 'sql-template-tag';

import type { DataSource } from '../platform/db/data-source';

/** What a login under way checks the provider's answer against. */
export interface PendingLogin {
  code_verifier: string;
  nonce: string;
}

const NOW = sql`(now() at time zone 'utc')`;

/** The single-sign-on tables: logins under way, provider identities, one-time sign-in codes. */
export class OidcRepository {
  constructor(private readonly db: DataSource) {}

  /** Keeps a login under way for `ttlSeconds`; the expired ones go at the same time. */
  async saveLogin(stateHash: string, login: PendingLogin, ttlSeconds: number): Promise<void> {
    await this.db.run(sql`delete from "oidc_logins" where "expires_at" < ${NOW}`);
    await this.db.run(
      sql`insert into "oidc_logins" ("state_hash", "code_verifier", "nonce", "expires_at")
          values (${stateHash}, ${login.code_verifier}, ${login.nonce}, ${NOW} + make_interval(secs => ${ttlSeconds}))`,
    );
  }

  /** Takes the login of this state once: a second take, or one after its expiry, finds nothing. */
  async takeLogin(stateHash: string): Promise<PendingLogin | null> {
    const row = await this.db.row<PendingLogin & { live: boolean }>(
      sql`delete from "oidc_logins" where "state_hash" = ${stateHash}
          returning "code_verifier", "nonce", "expires_at" > ${NOW} as "live"`,
    );
    return row?.live ? row : null;
  }

  /** The account linked to this identity at the issuer, if any. */
  async linkedUser(issuer: string, subject: string): Promise<number | null> {
    const row = await this.db.row<{ user_id: number }>(
      sql`select "user_id" from "oidc_identities" where "issuer" = ${issuer} and "subject" = ${subject}`,
    );
    return row?.user_id ?? null;
  }

  /** Whether the account is linked to some identity at the issuer already. */
  async hasLink(userId: number, issuer: string): Promise<boolean> {
    const row = await this.db.row(
      sql`select 1 from "oidc_identities" where "user_id" = ${userId} and "issuer" = ${issuer}`,
    );
    return row !== undefined;
  }

  async link(userId: number, issuer: string, subject: string): Promise<void> {
    await this.db.run(
      sql`insert into "oidc_identities" ("user_id", "issuer", "subject") values (${userId}, ${issuer}, ${subject})`,
    );
  }

  /** Keeps a one-time sign-in code's hash for `ttlSeconds`; the expired ones go at the same time. */
  async saveSignInCode(codeHash: string, userId: number, ttlSeconds: number): Promise<void> {
    await this.db.run(sql`delete from "sign_in_codes" where "expires_at" < ${NOW}`);
    await this.db.run(
      sql`insert into "sign_in_codes" ("code_hash", "user_id", "expires_at")
          values (${codeHash}, ${userId}, ${NOW} + make_interval(secs => ${ttlSeconds}))`,
    );
  }

  /** The account of a sign-in code, taken once: a second take, or one after its expiry, finds nothing. */
  async takeSignInCode(codeHash: string): Promise<number | null> {
    const row = await this.db.row<{ user_id: number; live: boolean }>(
      sql`delete from "sign_in_codes" where "code_hash" = ${codeHash} returning "user_id", "expires_at" > ${NOW} as "live"`,
    );
    return row?.live ? row.user_id : null;
  }
}
