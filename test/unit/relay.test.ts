import pino from 'pino';

import { DueWorkRelay } from '../../src/platform/relay';

describe('DueWorkRelay', () => {
  it('waits, when stopped, for the hand-offs under way: work taken is finished, not cut off', async () => {
    let due = [1, 2, 3];
    const finished: number[] = [];
    let started!: () => void;
    const handedOff = new Promise<void>((resolve) => (started = resolve));
    const relay = new DueWorkRelay<number>(
      async (limit) => {
        const taken = due.slice(0, limit);
        due = due.slice(limit);
        return taken;
      },
      async (claims) => {
        started();
        // A hand-off that takes a while (a POST, then the recording of its outcome).
        await new Promise((resolve) => setTimeout(resolve, 200));
        finished.push(...claims);
      },
      pino({ level: 'silent' }),
      { pollIntervalMs: 60_000, maxInFlight: 10 },
    );
    relay.start();
    relay.nudge();
    await handedOff;
    await relay.stop();
    expect(finished).toEqual([1, 2, 3]);
  });
});
