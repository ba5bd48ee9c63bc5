import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Caller } from '../platform/caller';
import { AppError } from '../platform/errors';
import type { OutboxSignal } from './outbox';
import { MAX_ATTEMPTS } from './retry-schedule';

export interface DeliveryRow {
  id: number;
  event_id: string;
  topic: string;
  endpoint_id: number;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRow {
  delivery_id: number;
  attempt_number: number;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
  created_at: string;
}

const DELIVERY_SELECT = `
select d."id", d."event_id", e."topic", d."endpoint_id", d."status", d."attempt_count", d."next_attempt_at", d."created_at", d."completed_at"
  from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"`;

/** The caller's delivery log: every delivery of their events, with every attempt. */
export class DeliveryLogService {
  constructor(
    private readonly orm: MikroORM<PostgreSqlDriver>,
    private readonly outbox: OutboxSignal,
  ) {}

  async list(caller: Caller, query: { offset: number; limit: number; endpointId?: number; status?: string }): Promise<DeliveryRow[]> {
    return this.orm.em.getConnection().execute<DeliveryRow[]>(
      `${DELIVERY_SELECT}
        where e."user_id" = ? and (? :: int is null or d."endpoint_id" = ?) and (? :: text is null or d."status" = ?)
        order by d."id" desc limit ? offset ?`,
      [caller.userId, query.endpointId ?? null, query.endpointId ?? null, query.status ?? null, query.status ?? null, query.limit, query.offset],
    );
  }

  async attempts(deliveryIds: readonly number[]): Promise<AttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    return this.orm.em.getConnection().execute<AttemptRow[]>(
      `select "delivery_id", "attempt_number", "status_code", "duration_ms", "response_excerpt", "error", "created_at"
         from "webhook_delivery_attempts" where "delivery_id" in (${deliveryIds.map(() => '?').join(', ')}) order by "id"`,
      [...deliveryIds],
    );
  }

  /**
   * One more attempt now for a finished delivery (failed, or succeeded and wanted again). It keeps its
   * attempt numbering; if that attempt fails too and none is left on the schedule, it is failed again.
   */
  async redeliver(caller: Caller, deliveryId: number): Promise<DeliveryRow> {
    const connection = this.orm.em.getConnection();
    const [delivery] = await connection.execute<DeliveryRow[]>(`${DELIVERY_SELECT} where d."id" = ? and e."user_id" = ?`, [deliveryId, caller.userId]);
    if (!delivery) throw AppError.notFound('Delivery');
    const updated = await connection.execute<DeliveryRow[]>(
      `update "webhook_deliveries" set "status" = 'PENDING', "completed_at" = null, "next_attempt_at" = (now() at time zone 'utc'),
              "attempt_count" = least("attempt_count", ?)
        where "id" = ? and "status" <> 'PENDING' returning "id"`,
      [MAX_ATTEMPTS - 1, deliveryId],
    );
    if (updated.length === 0) throw new AppError('CONFLICT', 'The delivery is still pending');
    this.outbox.notify();
    const [row] = await connection.execute<DeliveryRow[]>(`${DELIVERY_SELECT} where d."id" = ?`, [deliveryId]);
    return row;
  }
}
