import { LRUCache } from 'lru-cache';

import type { Caller } from './caller';
import { AppError } from './errors';

/** Every zone's date turns over at a quarter-hour of UTC (all offsets in use are multiples of 15 minutes). */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

interface KeptAnswer {
  dataVersion: string;
  quarterHour: number;
  /** The bytes sent (REST) or the result to send (GraphQL). */
  answer: unknown;
  bytes: number;
}

/** The key of a user's request, among kept answers and answers being made alike. */
function keyOf(caller: Caller, request: string): string {
  return `${caller.userId} ${request}`;
}

/** Kept in place of an answer too large to keep: the requests for it send theirs as made, holding none of it. */
const TOO_LARGE = Symbol('too large');

/** An answer one request is making, which requests for the same thing under the same version wait for. */
interface AnswerInTheMaking {
  dataVersion: string;
  quarterHour: number;
  answer: Promise<unknown>;
}

/**
 * Answers of records kept (the bytes sent, or a GraphQL result) per user and request, and served again while
 * nothing they were made from has changed: the user's data version (the caller's, read with its token before any data) is the
 * same, and so is the quarter-hour, since dates derived from "today" in some zone may differ in the next one.
 * Nothing is kept for a caller without a data version. Each process keeps its own; the version, read from the
 * database, keeps them exact across processes. A burst of the same request (a dashboard's clients polling after
 * a change) makes the answer once: the others wait for it instead of each holding one of their own while it is made.
 */
export class AnswerCache {
  private readonly kept: LRUCache<string, KeptAnswer> | null;
  private readonly making = new Map<string, AnswerInTheMaking>();
  /**
   * The largest answer kept: a quarter of the whole, and at most 1 MB, since an answer is held whole while it is
   * sent in order to be kept (32 concurrent answers of a year's calendar, held up to 4 MB each, added 130 MB).
   * Larger ones stream unheld.
   */
  private readonly maxEntryBytes: number;

  constructor(
    maxBytes: number,
    private readonly clock: () => Date,
  ) {
    this.maxEntryBytes = Math.min(Math.floor(maxBytes / 4), 1024 * 1024);
    this.kept =
      maxBytes > 0
        ? new LRUCache<string, KeptAnswer>({
            maxSize: maxBytes,
            maxEntrySize: this.maxEntryBytes,
            sizeCalculation: (answer) => answer.bytes,
          })
        : null;
  }

  /** The kept answer for `request` when it is still what a fresh one would be. */
  get<T>(caller: Caller, request: string): T | undefined {
    if (!this.kept || caller.dataVersion === undefined) return undefined;
    const key = keyOf(caller, request);
    const answer = this.kept.get(key);
    if (!answer) return undefined;
    if (answer.dataVersion === caller.dataVersion && answer.quarterHour === this.quarterHour())
      return answer.answer as T;
    this.kept.delete(key);
    return undefined;
  }

  /**
   * The kept answer to `request`, else the one another request of the same user, data version and quarter-hour
   * is making (waited for), else the one `make` makes now, kept. `make(keepUpTo)` gives the answer when it is at
   * most `keepUpTo` bytes, else sends it some other way and gives undefined; only then is the result undefined.
   * An answer found too large is remembered as such, so that the next requests for it hold none of theirs.
   */
  async keptOrMade<T>(
    caller: Caller,
    request: string,
    make: (keepUpTo: number) => Promise<{ answer: T; bytes: number } | undefined>,
  ): Promise<T | undefined> {
    // A kept answer, or one being made, needs the caller's version first; without either, the read that makes
    // the answer checks the token.
    const key = keyOf(caller, request);
    if (caller.pending && (this.kept?.has(key) || this.making.has(key)) && !(await caller.pending.confirm()))
      throw AppError.unauthenticated();
    const theirs = this.madeByAnother<T | typeof TOO_LARGE>(caller, request);
    const ready = this.get<T | typeof TOO_LARGE>(caller, request) ?? (theirs && (await theirs));
    if (ready === TOO_LARGE) return (await make(0))?.answer;
    if (ready !== undefined) return ready;
    const done = this.startMaking<T>(caller, request);
    let made: { answer: T; bytes: number } | undefined;
    try {
      made = await make(this.maxEntryBytes);
    } catch (error) {
      done();
      throw error;
    }
    done(made ?? TOO_LARGE);
    return made?.answer;
  }

  /**
   * The answer another request of the same user, data version and quarter-hour is making, to wait for (it
   * settles as undefined when theirs failed or is not kept); undefined when none is being made.
   */
  madeByAnother<T>(caller: Caller, request: string): Promise<T | undefined> | undefined {
    const making = this.making.get(keyOf(caller, request));
    if (!making || making.dataVersion !== caller.dataVersion || making.quarterHour !== this.quarterHour())
      return undefined;
    return making.answer as Promise<T | undefined>;
  }

  /**
   * Marks the answer to `request` as being made by this request, from now (the caller's version was read before
   * anything the answer reads). The returned function must be called once it is made, with the answer to keep,
   * TOO_LARGE when it was too large to keep, or nothing when it failed.
   */
  startMaking<T>(caller: Caller, request: string): (made?: { answer: T; bytes: number } | typeof TOO_LARGE) => void {
    if (!this.kept) return () => undefined;
    const key = keyOf(caller, request);
    const quarterHour = this.quarterHour();
    if (caller.dataVersion === undefined) return this.keepOnceConfirmed(caller, key, quarterHour);
    const { dataVersion } = caller;
    let settle!: (answer: T | typeof TOO_LARGE | undefined) => void;
    const mine: AnswerInTheMaking = { dataVersion, quarterHour, answer: new Promise((resolve) => (settle = resolve)) };
    this.making.set(key, mine);
    return (made) => {
      if (this.making.get(key) === mine) this.making.delete(key);
      const answer = made === TOO_LARGE ? made : made?.answer;
      if (made && quarterHour === this.quarterHour())
        this.kept?.set(key, {
          dataVersion,
          quarterHour,
          answer,
          bytes: made === TOO_LARGE ? request.length : made.bytes,
        });
      settle(answer);
    };
  }

  /**
   * For a caller whose token the answer's own read checks: the answer is kept under the data version that read
   * found (read in the same statement as the answer's data), when it found one.
   */
  private keepOnceConfirmed<T>(
    caller: Caller,
    key: string,
    quarterHour: number,
  ): (made?: { answer: T; bytes: number } | typeof TOO_LARGE) => void {
    return (made) => {
      const { dataVersion } = caller;
      if (made && made !== TOO_LARGE && dataVersion !== undefined && quarterHour === this.quarterHour())
        this.kept?.set(key, { dataVersion, quarterHour, answer: made.answer, bytes: made.bytes });
    };
  }

  /** The quarter-hour an answer begun now belongs to. */
  private quarterHour(): number {
    return Math.floor(this.clock().getTime() / QUARTER_HOUR_MS);
  }
}
