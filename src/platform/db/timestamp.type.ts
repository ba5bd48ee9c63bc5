import { Type } from '@mikro-orm/core';

/**
 * `timestamp(6)` in UTC, kept as the string pg returns (`YYYY-MM-DD HH:MM:SS.ffffff`): no Date objects, so no
 * lost microseconds, no timezone shifts and no parsing cost on reads.
 */
export class UtcTimestampType extends Type<string | null, string | null> {
  override getColumnType(): string {
    return 'timestamp(6)';
  }

  override compareAsType(): string {
    return 'string';
  }

  override get runtimeType(): string {
    return 'string';
  }
}
