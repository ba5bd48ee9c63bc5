import type { Logger } from '../logger';
import type { ClaimedDelivery, DeliveryService } from './delivery.service';

/** Where a claimed delivery goes: attempted here (embedded default) or handed to BullMQ (with Redis). */
export type DeliveryHandoff = (claims: ClaimedDelivery[]) => Promise<void>;

export interface RelayOptions {
  pollIntervalMs: number;
  /** Deliveries handed off and not finished at once, at most. */
  maxInFlight: number;
}

/**
 * Moves due deliveries out of the outbox table: polls for rows whose next attempt has come (skipping rows
 * another relay holds), and hands them off. `nudge()` runs a round at once, right after a commit.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private rerun = false;
  private inFlight = 0;
  private stopped = true;

  constructor(
    private readonly deliveries: DeliveryService,
    private readonly handoff: DeliveryHandoff,
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

  /** Stops polling and waits for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.nudge();
      this.schedule();
    }, this.options.pollIntervalMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const claims = await this.deliveries.claimDue(this.options.maxInFlight - this.inFlight);
      if (claims.length === 0) return;
      this.inFlight += claims.length;
      this.handoff(claims)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'delivery hand-off failed; retried after the lease'))
        .finally(() => {
          this.inFlight -= claims.length;
        });
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox relay round failed');
    }
  }
}

/** The embedded default: attempt each claimed delivery in this process. */
export function inProcessHandoff(deliveries: DeliveryService): DeliveryHandoff {
  return async (claims) => {
    await Promise.all(claims.map((claim) => deliveries.attempt(claim)));
  };
}
