import { Writable } from 'node:stream';

import type { Request, Response } from 'express';

import { sendKeptJsonArray } from '../../rest-facade/json-stream';
import { AnswerCache } from '../../src/platform/answer-cache';
import type { Caller } from '../../src/platform/caller';

/** A response whose client reads slowly: every write fills the buffer, so each chunk waits for 'drain'. */
class SlowResponse extends Writable {
  readonly chunks: string[] = [];
  /** The most 'close' listeners seen while writing: one wait per chunk at most, not one per chunk so far. */
  mostCloseListeners = 0;
  constructor() {
    super({ highWaterMark: 1 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    this.mostCloseListeners = Math.max(this.mostCloseListeners, this.listenerCount('close'));
    setImmediate(done);
  }
  status(): this {
    return this;
  }
  type(): this {
    return this;
  }
  setHeader(): this {
    return this;
  }
  vary(): this {
    return this;
  }
  async text(): Promise<string> {
    if (!this.writableFinished) await new Promise((resolve) => this.once('finish', resolve));
    return this.chunks.join('');
  }
}

const caller: Caller = { userId: 7, tokenId: 1, dataVersion: '3' };
/** A request that asks for no compression and names no ETag. */
const req = { headers: {}, acceptsEncodings: () => false } as unknown as Request;
const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ index, text: 'x'.repeat(40) }));

/** Sends `items` as the answer to `request` through `answers`, counting the loads it made. */
async function send(
  answers: AnswerCache,
  items: object[],
  loads = { count: 0 },
  request = 'list',
  who = caller,
): Promise<SlowResponse> {
  const res = new SlowResponse();
  await sendKeptJsonArray(
    res as unknown as Response,
    req,
    answers,
    who,
    request,
    async () => {
      loads.count++;
      return items;
    },
    (item) => item,
  );
  return res;
}

it('streams a large array chunk by chunk, never piling listeners on the response', async () => {
  const res = new SlowResponse();
  const before = {
    close: res.listenerCount('close'),
    error: res.listenerCount('error'),
    drain: res.listenerCount('drain'),
  };
  const items = rows(20_000);
  await sendKeptJsonArray(
    res as unknown as Response,
    req,
    new AnswerCache(0, () => new Date()),
    caller,
    'list',
    async () => items,
    (item) => item,
  );
  expect(JSON.parse(await res.text())).toHaveLength(20_000);
  expect(res.chunks.length).toBeGreaterThan(10);
  expect({
    close: res.listenerCount('close'),
    error: res.listenerCount('error'),
    drain: res.listenerCount('drain'),
  }).toEqual(before);
  expect(res.mostCloseListeners).toBeLessThanOrEqual(before.close + 1);
});

it('keeps an answer that fits and sends it again byte for byte; a larger one is streamed whole and not kept', async () => {
  const answers = new AnswerCache(4 * 1024 * 1024, () => new Date());
  const loads = { count: 0 };
  const first = await (await send(answers, rows(5_000), loads)).text();
  expect(JSON.parse(first)).toHaveLength(5_000);
  expect(await (await send(answers, rows(5_000), loads)).text()).toBe(first);
  expect(loads.count).toBe(1);
  // Past the 1 MB an answer may be kept.
  const large = { count: 0 };
  expect(JSON.parse(await (await send(answers, rows(30_000), large, 'calendar')).text())).toHaveLength(30_000);
  expect(JSON.parse(await (await send(answers, rows(30_000), large, 'calendar')).text())).toHaveLength(30_000);
  expect(large.count).toBe(2);
});

it('makes an answer once for a burst of the same request under the same data version, and apart for another version', async () => {
  const answers = new AnswerCache(4 * 1024 * 1024, () => new Date());
  const loads = { count: 0 };
  const burst = await Promise.all(Array.from({ length: 8 }, () => send(answers, rows(2_000), loads)));
  const texts = await Promise.all(burst.map((res) => res.text()));
  expect(loads.count).toBe(1);
  expect(new Set(texts).size).toBe(1);
  expect(JSON.parse(texts[0])).toHaveLength(2_000);
  const changed = { count: 0 };
  await Promise.all([
    send(answers, rows(10), changed, 'list', { ...caller, dataVersion: '4' }),
    send(answers, rows(10), changed, 'other'),
  ]);
  expect(changed.count).toBe(2);
});

it('lets each request of a burst make its own answer when the one they waited for failed', async () => {
  const answers = new AnswerCache(4 * 1024 * 1024, () => new Date());
  let calls = 0;
  const attempt = () =>
    sendKeptJsonArray(
      new SlowResponse() as unknown as Response,
      req,
      answers,
      caller,
      'failing',
      async () => {
        calls++;
        throw new Error('no results');
      },
      (item) => item,
    );
  const outcomes = await Promise.allSettled([attempt(), attempt(), attempt()]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  expect(calls).toBe(3);
});
