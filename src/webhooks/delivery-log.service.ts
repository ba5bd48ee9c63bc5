import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';

import type { Caller } from '../platform/caller';
import { pooled } from '../platform/db/statements';
import { AppError } from '../platform/errors';
import { type AttemptRow, type DeliveryQuery, deliveryRepository, type DeliveryRow } from './delivery.repository';
import type { OutboxSignal } from './outbox';
import { MAX_ATTEMPTS } from './retry-schedule';

export type { AttemptRow, DeliveryRow };

/** The caller's delivery log: every delivery of their events (to webhook endpoints and notification targets), with every attempt. */
export class DeliveryLogService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly outbox: OutboxSignal,
  ) {}

  list(caller: Caller, query: DeliveryQuery): Promise<DeliveryRow[]> {
    return deliveryRepository.list(pooled(this.orm), caller.userId, query);
  }

  attempts(deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    return deliveryRepository.attempts(pooled(this.orm), deliveryIds);
  }

  /** Deliveries per status, for the metrics. */
  countsByStatus(): Promise<Record<string, number>> {
    return deliveryRepository.countsByStatus(pooled(this.orm));
  }

  /**
   * One more attempt now for a finished delivery (failed, or succeeded and wanted again). It keeps its
   * attempt numbering; if that attempt fails too and none is left on the schedule, it is failed again.
   */
  async redeliver(caller: Caller, deliveryId: number): Promise<DeliveryRow> {
    const em = pooled(this.orm);
    if (!(await deliveryRepository.owned(em, caller.userId, deliveryId))) throw AppError.notFound('Delivery');
    if (!(await deliveryRepository.reopen(em, deliveryId, MAX_ATTEMPTS - 1)))
      throw new AppError('CONFLICT', 'The delivery is still pending');
    this.outbox.notify();
    return (await deliveryRepository.owned(em, caller.userId, deliveryId))!;
  }
}
