import type { ConnectionOptions, Queue } from 'bullmq';
import type { ClaimedDelivery } from './delivery.service';
import type { DeliveryHandoff } from './outbox-relay';

export const DELIVERY_QUEUE = 'webhook-deliveries';

/** BullMQ connections block on Redis commands, so they must retry without limit (ioredis option). */
export function queueConnection(redisUrl: string): ConnectionOptions {
  return { url: redisUrl, maxRetriesPerRequest: null } as ConnectionOptions;
}

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
  // bullmq and ioredis (11 MB per process) load only where Redis is configured.
  const { Queue } = require('bullmq') as typeof import('bullmq');
  return new Queue<ClaimedDelivery>(DELIVERY_QUEUE, { connection: queueConnection(redisUrl), prefix });
}
