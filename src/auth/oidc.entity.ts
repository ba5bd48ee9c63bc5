import { Entity, Index, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW, utcTimestamp } from '../platform/db/timestamps';
import { User } from './user.entity';

/**
 * A single-sign-on login under way: what the callback checks the provider's answer against. Kept server-side
 * (any process may take the callback), found by the SHA-256 of its state, taken once.
 */
@Entity({ tableName: 'oidc_logins' })
export class OidcLogin {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 64 })
  @Unique()
  stateHash!: string;

  @Property({ type: 'text' })
  codeVerifier!: string;

  @Property({ type: 'text' })
  nonce!: string;

  @Property({ type: UtcTimestampType })
  @Index()
  expiresAt!: string;
}

/** An account's identity at a provider: the (issuer, subject) it signed in as, matched before any e-mail. */
@Entity({ tableName: 'oidc_identities' })
@Unique({ properties: ['issuer', 'subject'] })
@Unique({ properties: ['user', 'issuer'] })
export class OidcIdentity {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  user!: number;

  @Property({ type: 'string', length: 500 })
  issuer!: string;

  @Property({ type: 'string', length: 255 })
  subject!: string;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW, onCreate: () => utcTimestamp() })
  createdAt!: Opt<string>;
}

/** The one-time code a finished single sign-on hands the dashboard, exchanged once for an access token. */
@Entity({ tableName: 'sign_in_codes' })
export class SignInCode {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 64 })
  @Unique()
  codeHash!: string;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  @Index()
  user!: number;

  @Property({ type: UtcTimestampType })
  @Index()
  expiresAt!: string;
}
