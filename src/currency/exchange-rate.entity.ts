import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The digits of a stored rate, and those after the point (per_usd is numeric(20, 8)). */
export const RATE_PRECISION = 20;
export const RATE_SCALE = 8;

/** Units of a currency that one US dollar buys, as of a date. USD itself is 1. */
@Entity({ tableName: 'exchange_rates' })
export class ExchangeRate {
  @PrimaryKey({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'decimal', precision: RATE_PRECISION, scale: RATE_SCALE })
  perUsd!: string;

  @Property({ type: 'date' })
  asOf!: string;
}
