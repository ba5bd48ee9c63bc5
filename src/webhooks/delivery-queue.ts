import type { Queue } from 'bullmq';
import type { Logger } from '../platform/logger';
import { createQueue } from '../platform/queues';
import { DueWorkRelay, type Handoff, type RelayOptions } from '../platform/relay';
import type { ClaimedDelivery, DeliveryService } from './delivery.service';

export type DeliveryHandoff = Handoff<ClaimedDelivery>;

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** One job per attempt: the id names delivery and attempt, so a repeated hand-off adds nothing. */
export function jobIdOf(claim: ClaimedDelivery): string {
  return `delivery-${claim.deliveryId}-${claim.attemptsMade + 1}`;
}

/** With Redis: claimed deliveries become BullMQ jobs that workers (here or `npm run worker`) attempt. */
export function queueHandoff(queue: Queue<ClaimedDelivery>): DeliveryHandoff {
  return async (claims) => {
    await queue.addBulk(
      claims.map((claim) => ({
        name: 'attempt',
        data: claim,
        opts: { jobId: jobIdOf(claim), removeOnComplete: true, removeOnFail: 1000, attempts: 1 },
      })),
    );
  };
}

export function createDeliveryQueue(redisUrl: string, prefix: string): Queue<ClaimedDelivery> {
  return createQueue<ClaimedDelivery>(DELIVERY_QUEUE, redisUrl, prefix);
}

/** The outbox relay: due deliveries. */
export function outboxRelay(deliveries: DeliveryService, handoff: DeliveryHandoff, logger: Logger, options: RelayOptions): DueWorkRelay<ClaimedDelivery> {
  return new DueWorkRelay((limit) => deliveries.claimDue(limit), handoff, logger, options);
}

/** The embedded default: attempt each claimed delivery in this process. */
export function inProcessHandoff(deliveries: DeliveryService): DeliveryHandoff {
  return async (claims) => {
    await Promise.all(claims.map((claim) => deliveries.attempt(claim)));
  };
}
