import { Writable } from 'node:stream';
import type { Response } from 'express';
import { sendJsonArray } from '../../rest-facade/json-stream';

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
}

it('streams a large array chunk by chunk, never piling listeners on the response', async () => {
  const res = new SlowResponse();
  const before = { close: res.listenerCount('close'), error: res.listenerCount('error'), drain: res.listenerCount('drain') };
  const items = Array.from({ length: 20_000 }, (_, index) => ({ index, text: 'x'.repeat(40) }));
  await sendJsonArray(res as unknown as Response, items, (item) => item);
  await new Promise((resolve) => res.once('finish', resolve));
  expect(res.chunks.length).toBeGreaterThan(10);
  expect(JSON.parse(res.chunks.join(''))).toHaveLength(20_000);
  expect({ close: res.listenerCount('close'), error: res.listenerCount('error'), drain: res.listenerCount('drain') }).toEqual(before);
  expect(res.mostCloseListeners).toBeLessThanOrEqual(before.close + 1);
});

it('returns the chunks it sent when the whole answer fits what may be kept, and keeps nothing past that', async () => {
  const items = Array.from({ length: 5_000 }, (_, index) => ({ index, text: 'y'.repeat(40) }));
  const sent = new SlowResponse();
  const kept = await sendJsonArray(sent as unknown as Response, items, (item) => item, 10_000_000);
  await new Promise((resolve) => sent.once('finish', resolve));
  expect(kept!.length).toBeGreaterThan(1);
  expect(Buffer.concat(kept!).toString()).toBe(sent.chunks.join(''));
  const tooBig = new SlowResponse();
  expect(await sendJsonArray(tooBig as unknown as Response, items, (item) => item, 100_000)).toBeNull();
  await new Promise((resolve) => tooBig.once('finish', resolve));
  expect(JSON.parse(tooBig.chunks.join(''))).toHaveLength(5_000);
});
