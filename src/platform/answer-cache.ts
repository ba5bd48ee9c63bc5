import { createHash } from 'node:crypto';

import { LRUCache } from 'lru-cache';

import type { Caller } from './caller';
import { VERSION } from './version';
import { type Coding, compress } from './web/compression';

/** Every zone's date turns over at a quarter-hour of UTC (all offsets in use are multiples of 15 minutes). */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** An answer as the JSON bytes sent, and its compressed copies: each made once, when first asked for. */
export interface KeptJson {
  chunks: readonly Buffer[];
  bytes: number;
  compressed: Map<Exclude<Coding, 'identity'>, Promise<Buffer>>;
}

/** The answer whose JSON is `chunks` (or `text`), to keep. */
export function keptJson(chunks: readonly Buffer[] | string): KeptJson {
  const bytes = typeof chunks === 'string' ? [Buffer.from(chunks)] : chunks;
  return { chunks: bytes, bytes: bytes.reduce((sum, chunk) => sum + chunk.length, 0), compressed: new Map() };
}

interface KeptAnswer {
  dataVersion: string;
  quarterHour: number;
  answer: KeptJson | typeof TOO_LARGE;
  /** Every byte it holds: the JSON and its compressed copies. */
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
  answer: Promise<KeptJson | typeof TOO_LARGE | undefined>;
}

/**
 * Answers of records kept as the JSON bytes sent, per user and request, and served again while nothing they
 * were made from has changed: the user's data version (the caller's, read with its token before any data) is the
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
   * Larger ones stream unheld. Its compressed copies come on top (for JSON, a fraction of it each).
   */
  private readonly maxEntryBytes: number;

  constructor(
    maxBytes: number,
    private readonly clock: () => Date,
  ) {
    this.maxEntryBytes = Math.min(Math.floor(maxBytes / 4), 1024 * 1024);
    this.kept =
      maxBytes > 0
        ? new LRUCache<string, KeptAnswer>({ maxSize: maxBytes, sizeCalculation: (kept) => kept.bytes })
        : null;
  }

  /** Whether an answer to `request` is kept or being made, whatever the version it was made under. */
  holds(caller: Caller, request: string): boolean {
    const key = keyOf(caller, request);
    return this.kept?.has(key) === true || this.making.has(key);
  }

  /** Whether answers are kept at all (ANSWER_CACHE_MB above 0). */
  get keeps(): boolean {
    return this.kept !== null;
  }

  /** The kept answer for `request` when it is still what a fresh one would be. */
  get(caller: Caller, request: string): KeptJson | undefined {
    const answer = this.current(caller, request);
    return answer === TOO_LARGE ? undefined : answer;
  }

  /**
   * The answer another request of the same user, data version and quarter-hour is making, to wait for (it
   * settles as undefined when theirs failed or is not kept); undefined when none is being made.
   */
  madeByAnother(caller: Caller, request: string): Promise<KeptJson | undefined> | undefined {
    return this.theirs(caller, request)?.then((answer) => (answer === TOO_LARGE ? undefined : answer));
  }

  /**
   * The kept answer to `request`, else the one another request of the same user, data version and quarter-hour
   * is making (waited for), else the one `make` makes now, kept. `make(keepUpTo)` gives the answer when it is at
   * most `keepUpTo` bytes, else sends it some other way and gives undefined; only then is the result undefined.
   * An answer found too large is remembered as such, so that the next requests for it hold none of theirs.
   */
  async keptOrMade(
    caller: Caller,
    request: string,
    make: (keepUpTo: number) => Promise<KeptJson | undefined>,
  ): Promise<KeptJson | undefined> {
    const theirs = this.theirs(caller, request);
    const ready = this.current(caller, request) ?? (theirs && (await theirs));
    if (ready === TOO_LARGE) return make(0);
    if (ready !== undefined) return ready;
    const done = this.startMaking(caller, request);
    let made: KeptJson | undefined;
    try {
      made = await make(this.maxEntryBytes);
    } catch (error) {
      done();
      throw error;
    }
    done(made ?? TOO_LARGE);
    return made;
  }

  /**
   * Marks the answer to `request` as being made by this request, from now (the caller's version was read before
   * anything the answer reads). The returned function must be called once it is made, with the answer to keep
   * (one too large to keep is remembered as such), TOO_LARGE when it was sent unheld, or nothing when it failed.
   */
  startMaking(caller: Caller, request: string): (made?: KeptJson | typeof TOO_LARGE) => void {
    if (!this.kept) return () => undefined;
    const key = keyOf(caller, request);
    const quarterHour = this.quarterHour();
    // A caller whose token the answer's own read checks has no version yet: that read finds it, in the same
    // statement as the answer's data, and the answer is kept under it.
    let settle: ((answer: KeptJson | typeof TOO_LARGE | undefined) => void) | undefined;
    const mine: AnswerInTheMaking | undefined =
      caller.dataVersion === undefined
        ? undefined
        : { dataVersion: caller.dataVersion, quarterHour, answer: new Promise((resolve) => (settle = resolve)) };
    if (mine) this.making.set(key, mine);
    return (made) => {
      if (mine && this.making.get(key) === mine) this.making.delete(key);
      const dataVersion = mine?.dataVersion ?? caller.dataVersion;
      const answer = made !== TOO_LARGE && made && made.bytes > this.maxEntryBytes ? TOO_LARGE : made;
      if (answer && dataVersion !== undefined && quarterHour === this.quarterHour())
        this.kept?.set(key, {
          dataVersion,
          quarterHour,
          answer,
          bytes: answer === TOO_LARGE ? request.length : answer.bytes,
        });
      settle?.(answer);
    };
  }

  /**
   * The answer's bytes in `coding`: compressed the first time they are asked for (once, however many ask
   * meanwhile), and from then on held with the kept answer and counted in what the cache holds.
   */
  async bytesIn(caller: Caller, request: string, answer: KeptJson, coding: Coding): Promise<readonly Buffer[]> {
    if (coding === 'identity') return answer.chunks;
    let compressed = answer.compressed.get(coding);
    if (!compressed) {
      compressed = compress(Buffer.concat(answer.chunks), coding);
      answer.compressed.set(coding, compressed);
      compressed.then(
        (bytes) => this.grew(caller, request, answer, bytes.length),
        () => answer.compressed.delete(coding),
      );
    }
    return [await compressed];
  }

  /**
   * The ETag of the answer to `request`: the same for as long as a kept answer would be served (user, data
   * version, quarter-hour; and Subledger's version, which may answer otherwise), none without a data version.
   * Weak, since the same answer goes in several codings.
   */
  tagOf(caller: Caller, request: string): string | undefined {
    if (caller.dataVersion === undefined) return undefined;
    const hash = createHash('sha256')
      .update(`${VERSION} ${caller.userId} ${caller.dataVersion} ${this.quarterHour()} ${request}`)
      .digest('base64url');
    return `W/"${hash.slice(0, 27)}"`;
  }

  /** The kept answer for `request`, or TOO_LARGE, when it is still what a fresh one would be. */
  private current(caller: Caller, request: string): KeptJson | typeof TOO_LARGE | undefined {
    if (!this.kept || caller.dataVersion === undefined) return undefined;
    const key = keyOf(caller, request);
    const kept = this.kept.get(key);
    if (!kept) return undefined;
    if (kept.dataVersion === caller.dataVersion && kept.quarterHour === this.quarterHour()) return kept.answer;
    this.kept.delete(key);
    return undefined;
  }

  /** The answer (or TOO_LARGE) another request is making: see madeByAnother. */
  private theirs(caller: Caller, request: string): AnswerInTheMaking['answer'] | undefined {
    const making = this.making.get(keyOf(caller, request));
    if (!making || making.dataVersion !== caller.dataVersion || making.quarterHour !== this.quarterHour())
      return undefined;
    return making.answer;
  }

  /** Counts `bytes` more held by `answer`, when it is still the one kept for `request`. */
  private grew(caller: Caller, request: string, answer: KeptJson, bytes: number): void {
    const key = keyOf(caller, request);
    const kept = this.kept?.peek(key);
    if (kept?.answer === answer) this.kept!.set(key, { ...kept, bytes: kept.bytes + bytes });
  }

  /** The quarter-hour an answer begun now belongs to. */
  private quarterHour(): number {
    return Math.floor(this.clock().getTime() / QUARTER_HOUR_MS);
  }
}
