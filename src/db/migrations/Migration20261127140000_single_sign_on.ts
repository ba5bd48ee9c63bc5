import { Migration } from '@mikro-orm/migrations';

/**
 * Single sign-on (OpenID Connect): logins under way (state hash, PKCE verifier, nonce; taken once, ten minutes
 * at most), the (issuer, subject) identities accounts signed in as, and the one-time codes a finished sign-in
 * hands the dashboard (only their SHA-256 stored, a minute at most).
 */
export class Migration20261127140000_single_sign_on extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "oidc_logins" ("id" serial primary key, "state_hash" varchar(64) not null, "code_verifier" text not null, "nonce" text not null, "expires_at" timestamp(6) not null);`,
    );
    this.addSql(`alter table "oidc_logins" add constraint "oidc_logins_state_hash_unique" unique ("state_hash");`);
    this.addSql(`create index "oidc_logins_expires_at_index" on "oidc_logins" ("expires_at");`);

    this.addSql(
      `create table "sign_in_codes" ("id" serial primary key, "code_hash" varchar(64) not null, "user_id" int not null, "expires_at" timestamp(6) not null);`,
    );
    this.addSql(`alter table "sign_in_codes" add constraint "sign_in_codes_code_hash_unique" unique ("code_hash");`);
    this.addSql(`create index "sign_in_codes_user_id_index" on "sign_in_codes" ("user_id");`);
    this.addSql(`create index "sign_in_codes_expires_at_index" on "sign_in_codes" ("expires_at");`);
    this.addSql(
      `alter table "sign_in_codes" add constraint "sign_in_codes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "oidc_identities" ("id" serial primary key, "user_id" int not null, "issuer" varchar(500) not null, "subject" varchar(255) not null, "created_at" timestamp(6) not null default (now() at time zone 'utc'));`,
    );
    this.addSql(
      `alter table "oidc_identities" add constraint "oidc_identities_user_id_issuer_unique" unique ("user_id", "issuer");`,
    );
    this.addSql(
      `alter table "oidc_identities" add constraint "oidc_identities_issuer_subject_unique" unique ("issuer", "subject");`,
    );
    this.addSql(
      `alter table "oidc_identities" add constraint "oidc_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "oidc_identities" cascade;`);
    this.addSql(`drop table if exists "sign_in_codes" cascade;`);
    this.addSql(`drop table if exists "oidc_logins" cascade;`);
  }
}
