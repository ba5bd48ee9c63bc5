import type { Queue } from 'bullmq';

import { createQueue } from '../platform/queues';
import type { Handoff } from '../platform/relay';
import type { DueReminder, ReminderService } from './reminder.service';

export const REMINDER_QUEUE = 'reminders';
/** With Redis, reminders are queued this long before they fire, as delayed jobs. */
export const REMINDER_LOOK_AHEAD_MS = 60_000;

export function createReminderQueue(redisUrl: string, prefix: string): Queue<DueReminder> {
  return createQueue<DueReminder>(REMINDER_QUEUE, redisUrl, prefix);
}

/**
 * Delayed BullMQ jobs that fire at the reminder's time. The id names the reminder, its fire time and whether
 * it was queued ahead or already due: a reminder still unfired when its time has come gets a job that runs
 * at once (the delayed one then finds it fired and does nothing).
 */
export function reminderQueueHandoff(queue: Queue<DueReminder>, clock: () => Date): Handoff<DueReminder> {
  return async (due) => {
    await queue.addBulk(
      due.map((reminder) => {
        const delay = Math.max(0, reminder.fireAt.getTime() - clock().getTime());
        return {
          name: 'fire',
          data: reminder,
          opts: {
            jobId: `reminder-${reminder.reminderId}-${reminder.fireAt.getTime()}-${delay > 0 ? 'ahead' : 'due'}`,
            delay,
            removeOnComplete: true,
            removeOnFail: 1000,
          },
        };
      }),
    );
  };
}

/** The embedded default: fire each due reminder in this process. */
export function inProcessReminderHandoff(reminders: ReminderService): Handoff<DueReminder> {
  return async (due) => {
    for (const reminder of due) await reminders.fire(reminder.reminderId);
  };
}
