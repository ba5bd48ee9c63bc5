import Decimal from 'decimal.js';
import fc from 'fast-check';
import { monthlyEquivalent } from '../../src/subscriptions/spending';
import { convert, toMoneyString } from '../../src/platform/money';

const rates = new Map([
  ['USD', '1'],
  ['EUR', '0.8520'],
  ['JPY', '144.00'],
]);

describe('convert', () => {
  it('converts through the dollar with decimal arithmetic and two decimals', () => {
    expect(convert('10', 'USD', 'EUR', rates)).toBe('8.52');
    expect(convert('8.52', 'EUR', 'USD', rates)).toBe('10.00');
    expect(convert('1000', 'JPY', 'EUR', rates)).toBe('5.92');
    expect(convert('0.1', 'USD', 'USD', rates)).toBe('0.10');
  });

  it('has no float error (0.1 + 0.2 style)', () => {
    expect(convert('0.3', 'USD', 'USD', rates)).toBe('0.30');
    expect(convert('1.005', 'USD', 'USD', rates)).toBe('1.01');
  });

  it('refuses an unknown currency', () => {
    expect(() => convert('1', 'USD', 'XXX', rates)).toThrow(RangeError);
  });

  it('round-trips within a cent for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
        const amount = (cents / 100).toFixed(2);
        const back = convert(convert(amount, 'USD', 'EUR', rates), 'EUR', 'USD', rates);
        expect(new Decimal(back).minus(amount).abs().lte('0.01')).toBe(true);
      }),
    );
  });
});

describe('monthlyEquivalent', () => {
  it('spreads each cycle over a month', () => {
    expect(monthlyEquivalent('120', 2, 4, 1).toFixed(2)).toBe('10.00');
    expect(monthlyEquivalent('10', 2, 3, 1).toFixed(2)).toBe('10.00');
    expect(monthlyEquivalent('30', 2, 3, 3).toFixed(2)).toBe('10.00');
    expect(monthlyEquivalent('7', 2, 2, 1).toFixed(2)).toBe('30.44');
    expect(monthlyEquivalent('1', 2, 1, 1).toFixed(4)).toBe('30.4369');
    expect(monthlyEquivalent('30', 1, 3, 1).toFixed(2)).toBe('30.44');
  });

  it('formats stored numerics with two decimals', () => {
    expect(toMoneyString('12.5')).toBe('12.50');
    expect(toMoneyString('0')).toBe('0.00');
  });
});
