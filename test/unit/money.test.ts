import { toMoneyString } from '../../src/platform/money';
import { monthlyEquivalent } from '../../src/spending/spending';

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
