import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

import { UtcTimestampType } from '../platform/db/timestamp.type';

/**
 * How the scheduled exchange-rate refresh last went (one row, id 1): every API process reads it for /readyz
 * and the metrics, whichever process ran the refresh.
 */
@Entity({ tableName: 'rates_refreshes' })
export class RatesRefresh {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  id!: number;

  @Property({ type: 'text' })
  sourceUrl!: string;

  @Property({ type: UtcTimestampType })
  attemptedAt!: string;

  @Property({ type: UtcTimestampType, nullable: true })
  succeededAt?: string | null;

  /** Why the last attempt failed; null when it succeeded. */
  @Property({ type: 'text', nullable: true })
  error?: string | null;
}
