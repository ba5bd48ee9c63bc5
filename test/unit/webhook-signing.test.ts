import { ATTEMPT_DELAYS_MS, delayBeforeNextAttempt, MAX_ATTEMPTS } from '../../src/webhooks/retry-schedule';
import { newEndpointSecret, signWebhook } from '../../src/webhooks/signature';

describe('webhook signatures', () => {
  it('match the Standard Webhooks reference vector', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('come from secrets of whsec_ + base64 of 32 random bytes', () => {
    const secret = newEndpointSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newEndpointSecret()).not.toBe(secret);
  });
});

describe('retry schedule', () => {
  it("is DESIGN's: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h", () => {
    expect(ATTEMPT_DELAYS_MS).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('gives the wait after each failed attempt and none after the last', () => {
    expect(delayBeforeNextAttempt(1)).toBe(5_000);
    expect(delayBeforeNextAttempt(2)).toBe(300_000);
    expect(delayBeforeNextAttempt(7)).toBe(36_000_000);
    expect(delayBeforeNextAttempt(8)).toBeNull();
  });
});
