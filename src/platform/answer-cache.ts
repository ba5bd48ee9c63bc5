import { LRUCache } from 'lru-cache';
import type { Caller } from './caller';

/** Every zone's date turns over at a quarter-hour of UTC (all offsets in use are multiples of 15 minutes). */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

interface KeptAnswer {
  dataVersion: string;
  quarterHour: number;
  /** The bytes sent (REST) or the result to send (GraphQL). */
  answer: unknown;
  bytes: number;
}

/**
 * Answers of records kept (the bytes sent, or a GraphQL result) per user and request, and served again while
 * nothing they were made from has changed: the user's data version (the caller's, read with its token before any data) is the
 * same, and so is the quarter-hour, since dates derived from "today" in some zone may differ in the next one.
 * Nothing is kept for a caller without a data version. Each process keeps its own; the version, read from the
 * database, keeps them exact across processes.
 */
export class AnswerCache {
  private readonly kept: LRUCache<string, KeptAnswer> | null;
  /**
   * The largest answer kept: a quarter of the whole, and at most 1 MB, since an answer is held whole while it is
   * sent in order to be kept (32 concurrent answers of a year's calendar, held up to 4 MB each, added 130 MB).
   * Larger ones stream unheld.
   */
  readonly maxEntryBytes: number;

  constructor(
    maxBytes: number,
    private readonly clock: () => Date,
  ) {
    this.maxEntryBytes = Math.min(Math.floor(maxBytes / 4), 1024 * 1024);
    this.kept =
      maxBytes > 0
        ? new LRUCache<string, KeptAnswer>({ maxSize: maxBytes, maxEntrySize: this.maxEntryBytes, sizeCalculation: (answer) => answer.bytes })
        : null;
  }

  /** The kept answer for `request` when it is still what a fresh one would be. */
  get<T>(caller: Caller, request: string): T | undefined {
    if (!this.kept || caller.dataVersion === undefined) return undefined;
    const key = `${caller.userId} ${request}`;
    const answer = this.kept.get(key);
    if (!answer) return undefined;
    if (answer.dataVersion === caller.dataVersion && answer.quarterHour === this.quarterHour()) return answer.answer as T;
    this.kept.delete(key);
    return undefined;
  }

  /** Keeps an answer (about `bytes` large) made after the caller's version was read, begun in quarter-hour `madeAt`. */
  keep(caller: Caller, request: string, answer: unknown, bytes: number, madeAt: number): void {
    if (!this.kept || caller.dataVersion === undefined || madeAt !== this.quarterHour()) return;
    this.kept.set(`${caller.userId} ${request}`, { dataVersion: caller.dataVersion, quarterHour: madeAt, answer, bytes });
  }

  /** The quarter-hour an answer begun now belongs to; pass it to keep(). */
  quarterHour(): number {
    return Math.floor(this.clock().getTime() / QUARTER_HOUR_MS);
  }
}
