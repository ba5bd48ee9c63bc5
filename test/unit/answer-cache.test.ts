import { AnswerCache, keptJson } from '../../src/platform/answer-cache';
import type { Caller } from '../../src/platform/caller';

const caller: Caller = { userId: 3, tokenId: 1, dataVersion: '10' };

/** A maker whose answers are `bytes` large, recording how much each call was allowed to hold. */
function maker(bytes: number) {
  const allowed: number[] = [];
  let release = () => {};
  const make = async (keepUpTo: number) => {
    allowed.push(keepUpTo);
    await new Promise<void>((resolve) => (release = resolve));
    return bytes <= keepUpTo ? keptJson([Buffer.alloc(bytes)]) : undefined;
  };
  return { allowed, make, release: () => release() };
}

it('remembers an answer too large to keep, so that the next requests for it, waiting or later, hold none of theirs', async () => {
  const answers = new AnswerCache(8 * 1024 * 1024, () => new Date('2026-11-26T10:00:00Z'));
  const large = maker(3 * 1024 * 1024);
  const first = answers.keptOrMade(caller, 'calendar', large.make);
  const waiting = answers.keptOrMade(caller, 'calendar', async (keepUpTo) => {
    large.allowed.push(keepUpTo);
    return undefined;
  });
  large.release();
  expect(await Promise.all([first, waiting])).toEqual([undefined, undefined]);
  expect(large.allowed).toEqual([1024 * 1024, 0]);
  // Later, under the same version: still too large. A new version tries to keep it again.
  const later = maker(3 * 1024 * 1024);
  const again = answers.keptOrMade(caller, 'calendar', later.make);
  later.release();
  await again;
  const changed = answers.keptOrMade({ ...caller, dataVersion: '11' }, 'calendar', later.make);
  later.release();
  await changed;
  expect(later.allowed).toEqual([0, 1024 * 1024]);
});

it('keeps an answer that fits, for the burst waiting on it and for the requests after', async () => {
  const answers = new AnswerCache(8 * 1024 * 1024, () => new Date('2026-11-26T10:00:00Z'));
  const small = maker(1000);
  const burst = [answers.keptOrMade(caller, 'list', small.make), answers.keptOrMade(caller, 'list', small.make)];
  small.release();
  const [made, waited] = await Promise.all(burst);
  expect(made?.bytes).toBe(1000);
  expect(waited).toBe(made);
  expect(await answers.keptOrMade(caller, 'list', small.make)).toBe(made);
  expect(small.allowed).toHaveLength(1);
});
