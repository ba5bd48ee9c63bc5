import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import type { AttemptRow, DeliveryQuery, DeliveryRepository, DeliveryRow } from './delivery.repository';
import type { OutboxSignal } from './outbox';
import { MAX_ATTEMPTS } from './retry-schedule';

export type { AttemptRow, DeliveryRow };

/** The caller's delivery log: every delivery of their events (to webhook endpoints and notification targets), with every attempt. */
export class DeliveryLogService {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly outbox: OutboxSignal,
  ) {}

  list(caller: Caller, query: DeliveryQuery): Promise<DeliveryRow[]> {
    return this.deliveries.list(caller.userId, query);
  }

  /** How many deliveries `list` pages through. */
  count(caller: Caller, query: Omit<DeliveryQuery, 'offset' | 'limit'>): Promise<number> {
    return this.deliveries.count(caller.userId, query);
  }

  /** One delivery of the caller's events (NOT_FOUND when there is none such). */
  async get(caller: Caller, deliveryId: number): Promise<DeliveryRow> {
    const row = await this.deliveries.owned(caller.userId, deliveryId);
    if (!row) throw AppError.notFound('Delivery');
    return row;
  }

  attempts(deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    return this.deliveries.attempts(deliveryIds);
  }

  /** The body of one of the caller's events; null when there is none such. */
  eventPayload(caller: Caller, eventId: string): Promise<Record<string, unknown> | null> {
    return this.deliveries.eventPayload(caller.userId, eventId);
  }

  /** One attempt of a delivery of the caller's events (NOT_FOUND when there is none such). */
  async attempt(caller: Caller, attemptId: number): Promise<AttemptRow> {
    const row = await this.deliveries.ownedAttempt(caller.userId, attemptId);
    if (!row) throw AppError.notFound('Delivery attempt');
    return row;
  }

  /** Deliveries per status, for the metrics. */
  countsByStatus(): Promise<Record<string, number>> {
    return this.deliveries.countsByStatus();
  }

  /**
   * One more attempt now for a finished delivery (failed, or succeeded and wanted again). It keeps its
   * attempt numbering; if that attempt fails too and none is left on the schedule, it is failed again.
   */
  async redeliver(caller: Caller, deliveryId: number): Promise<DeliveryRow> {
    if (!(await this.deliveries.owned(caller.userId, deliveryId))) throw AppError.notFound('Delivery');
    if (!(await this.deliveries.reopen(deliveryId, MAX_ATTEMPTS - 1)))
      throw new AppError('CONFLICT', 'The delivery is still pending');
    this.outbox.notify();
    return (await this.deliveries.owned(caller.userId, deliveryId))!;
  }
}
