import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** Units of a currency that one US dollar buys, as of a date. USD itself is 1. */
@Entity({ tableName: 'exchange_rates' })
export class ExchangeRate {
  @PrimaryKey({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'decimal', precision: 20, scale: 8 })
  perUsd!: string;

  @Property({ type: 'date' })
  asOf!: string;
}
