import fc from 'fast-check';

import {
  bearerToken,
  formatAccessToken,
  matchesHash,
  parseAccessToken,
  randomSecret,
  sha256Hex,
} from '../../src/auth/secrets';
import { utcTimestamp } from '../../src/platform/db/timestamps';
import { toIsoMicros, toSqlSeconds } from '../../src/platform/wire-formats';

describe('access tokens', () => {
  it('parse what they format, for any id and secret', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), fc.integer({ min: 30, max: 64 }), (id, bytes) => {
        const secret = randomSecret(bytes);
        expect(parseAccessToken(formatAccessToken(id, secret))).toEqual({ id, secret });
      }),
    );
  });

  it.each([
    '',
    '1|short',
    'abc|' + 'a'.repeat(40),
    '0|' + 'a'.repeat(40),
    '1|' + 'a'.repeat(39),
    '99999999999|' + 'a'.repeat(40),
    `1|${'a'.repeat(40)}|x`,
  ])('refuse %p', (token) => expect(parseAccessToken(token)).toBeNull());

  it('match only their own hash', () => {
    const secret = randomSecret();
    expect(matchesHash(secret, sha256Hex(secret))).toBe(true);
    expect(matchesHash(`${secret}x`, sha256Hex(secret))).toBe(false);
    expect(matchesHash(secret, 'not-hex')).toBe(false);
  });

  it('come out of a Bearer header only', () => {
    expect(bearerToken('Bearer 1|abc')).toBe('1|abc');
    expect(bearerToken('bearer   1|abc ')).toBe('1|abc');
    expect(bearerToken('Basic 1|abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('timestamps', () => {
  it('format the stored form in both documented shapes', () => {
    const stored = utcTimestamp(new Date('2026-02-03T04:05:06.789Z'));
    expect(stored).toBe('2026-02-03 04:05:06.789000');
    expect(toSqlSeconds(stored)).toBe('2026-02-03 04:05:06');
    expect(toIsoMicros(stored)).toBe('2026-02-03T04:05:06.789000Z');
    expect(toIsoMicros('2026-02-03 04:05:06')).toBe('2026-02-03T04:05:06.000000Z');
    expect(toSqlSeconds(null)).toBeNull();
  });
});
