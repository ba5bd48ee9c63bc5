import type { Logger } from './logger';

/** Where claimed work goes: done here (embedded default) or handed to BullMQ (with Redis). */
export type Handoff<T> = (claims: T[]) => Promise<void>;

export interface RelayOptions {
  pollIntervalMs: number;
  /** Deliveries handed off and not finished at once, at most. */
  maxInFlight: number;
}

/** How long stopping waits for hand-offs under way: a delivery's timeout and the recording of its attempt. */
const HANDOFF_DRAIN_MS = 12_000;

/**
 * Moves due work out of a table: polls for rows whose time has come (outbox deliveries, reminders) and hands
 * them off. `nudge()` runs a round at once, right after a commit.
 */
export class DueWorkRelay<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private inFlight = 0;
  /** Hand-offs under way: stopping waits for them, so work taken is finished and recorded, not cut off. */
  private readonly handoffs = new Set<Promise<void>>();
  private stopped = true;

  constructor(
    private readonly claim: (limit: number) => Promise<T[]>,
    private readonly handoff: Handoff<T>,
    private readonly logger: Logger,
    private readonly options: RelayOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = null;
      if (this.rerun) {
        this.rerun = false;
        this.nudge();
      }
    });
  }

  /** Stops polling and waits for the round under way and the hand-offs it started. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    // Bounded: a hand-off to a queue whose Redis is down would never settle (its rows are claimed again later).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.handoffs),
      new Promise((resolve) => (timer = setTimeout(resolve, HANDOFF_DRAIN_MS).unref())),
    ]);
    clearTimeout(timer);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.nudge();
      this.schedule();
    }, this.options.pollIntervalMs);
    this.timer.unref();
  }

  /**
   * Claims what fits and hands it off. A round that found work runs again at once, and a finished hand-off
   * frees room for another, so a backlog drains as fast as the hand-off goes, not one batch per poll.
   */
  private async round(): Promise<void> {
    try {
      const room = this.options.maxInFlight - this.inFlight;
      if (room <= 0) return;
      const claims = await this.claim(room);
      if (claims.length === 0) return;
      this.inFlight += claims.length;
      this.rerun = true;
      const handoff = this.handoff(claims)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'hand-off failed; the rows are claimed again later'),
        )
        .finally(() => {
          this.handoffs.delete(handoff);
          this.inFlight -= claims.length;
          this.nudge();
        });
      this.handoffs.add(handoff);
    } catch (error) {
      this.logger.warn({ err: error }, 'relay round failed');
    }
  }
}
