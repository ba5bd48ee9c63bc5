import { createHash } from 'node:crypto';

import type { Queue } from 'bullmq';

import type { Logger } from '../platform/logger';
import { createQueue } from '../platform/queues';
import { DueWorkRelay, type Handoff, type RelayOptions } from '../platform/relay';
import type { ClaimedDelivery, DeliveryService } from './delivery.service';

export type DeliveryHandoff = Handoff<ClaimedDelivery>;

export const DELIVERY_QUEUE = 'webhook-deliveries';

/**
 * One job per claimed batch: its id names each delivery and attempt in it, so the same hand-off repeated adds
 * nothing (and a repeated attempt is refused by the attempt's own claim anyway).
 */
export function jobIdOf(claims: readonly ClaimedDelivery[]): string {
  const attempts = claims.map((claim) => `${claim.deliveryId}.${claim.attemptsMade + 1}`).join(',');
  return `deliveries-${createHash('sha1').update(attempts).digest('hex')}`;
}

/** With Redis: each claimed batch becomes a BullMQ job that workers (here or `npm run worker`) attempt. */
export function queueHandoff(queue: Queue<ClaimedDelivery[]>): DeliveryHandoff {
  return async (claims) => {
    await queue.add('attempts', claims, {
      jobId: jobIdOf(claims),
      removeOnComplete: true,
      removeOnFail: 1000,
      attempts: 1,
    });
  };
}

export function createDeliveryQueue(redisUrl: string, prefix: string): Queue<ClaimedDelivery[]> {
  return createQueue<ClaimedDelivery[]>(DELIVERY_QUEUE, redisUrl, prefix);
}

/** The outbox relay: due deliveries. */
export function outboxRelay(
  deliveries: DeliveryService,
  handoff: DeliveryHandoff,
  logger: Logger,
  options: RelayOptions,
): DueWorkRelay<ClaimedDelivery> {
  return new DueWorkRelay((limit) => deliveries.claimDue(limit), handoff, logger, options);
}

/** The embedded default: attempt the claimed deliveries in this process. */
export function inProcessHandoff(deliveries: DeliveryService): DeliveryHandoff {
  return (claims) => deliveries.attempt(claims);
}
