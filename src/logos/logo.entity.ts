import { Entity, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

import { Product } from '../catalogue/product.entity';
import { UtcTimestampType } from '../platform/db/timestamp.type';
import { SQL_UTC_NOW } from '../platform/db/timestamps';

/**
 * A logo as it is served: a 128×128 WebP, named by its content (the first 32 hex digits of its SHA-256), so
 * its URL never changes meaning and two products or records with the same picture share one row. In
 * PostgreSQL, so that every API process and worker serves what any of them stored.
 */
@Entity({ tableName: 'logos' })
export class Logo {
  @PrimaryKey({ type: 'string', length: 32 })
  hash!: string;

  @Property({ type: 'blob' })
  bytes!: Buffer;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW })
  createdAt!: Opt<string>;
}

/**
 * A catalogue product's one logo fetch: made when the fetch was claimed, with why it failed (null: it did
 * not, or it is under way). Its existence is what stops a fetch from being made again.
 */
@Entity({ tableName: 'logo_fetches' })
export class LogoFetch {
  @ManyToOne(() => Product, { primary: true, mapToPk: true, deleteRule: 'cascade' })
  product!: number;

  @Property({ type: UtcTimestampType, defaultRaw: SQL_UTC_NOW })
  triedAt!: Opt<string>;

  @Property({ type: 'text', nullable: true })
  error?: string | null;
}
