import type { Worker } from 'bullmq';

import type { Logger } from '../src/platform/logger';
import { queueConnection } from '../src/platform/queues';
import type { DueReminder, ReminderService } from '../src/reminders/reminder.service';
import { REMINDER_QUEUE } from '../src/reminders/reminder-queue';
import type { ClaimedDelivery, DeliveryService } from '../src/webhooks/delivery.service';
import { DELIVERY_QUEUE } from '../src/webhooks/delivery-queue';

/** Jobs attempted at once; each is a claimed batch of up to 250 deliveries posted together. */
export const DELIVERY_CONCURRENCY = 4;

/** Consumes the delivery queue: each job is one attempt of each delivery of a claimed batch. */
export function startDeliveryWorker(
  deliveries: DeliveryService,
  redis: { url: string; prefix: string },
  logger: Logger,
): Worker<ClaimedDelivery[]> {
  const { Worker } = require('bullmq') as typeof import('bullmq');
  const worker = new Worker<ClaimedDelivery[]>(DELIVERY_QUEUE, (job) => deliveries.attempt(job.data), {
    connection: queueConnection(redis.url),
    prefix: redis.prefix,
    concurrency: DELIVERY_CONCURRENCY,
  });
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id }, 'delivery job failed'));
  worker.on('error', (error) => logger.warn({ err: error }, 'delivery worker error'));
  return worker;
}

/** Consumes the reminder queue: each (delayed) job fires one reminder, at most once. */
export function startReminderWorker(
  reminders: ReminderService,
  redis: { url: string; prefix: string },
  logger: Logger,
): Worker<DueReminder> {
  const { Worker } = require('bullmq') as typeof import('bullmq');
  const worker = new Worker<DueReminder>(REMINDER_QUEUE, (job) => reminders.fire(job.data.reminderId), {
    connection: queueConnection(redis.url),
    prefix: redis.prefix,
    concurrency: 4,
  });
  worker.on('failed', (job, error) => logger.warn({ err: error, jobId: job?.id }, 'reminder job failed'));
  worker.on('error', (error) => logger.warn({ err: error }, 'reminder worker error'));
  return worker;
}
