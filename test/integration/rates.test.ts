import { importRates } from '../../src/currency/rates.service';
import { AppError } from '../../src/platform/errors';
import { createSubscription } from '../support/subscriptions';
import { graphqlData, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

const rateOf = async (currency: string) =>
  (
    await testApp.app.db.orm.em
      .getConnection()
      .execute<{ per_usd: string; as_of: string }[]>('select "per_usd", "as_of" from "exchange_rates" where "currency" = ?', [currency])
  )[0];

it('refreshes listed rates in one go, adds new currencies, and base_value follows', async () => {
  const user = await signUp(testApp, 'Rates');
  const record = await createSubscription(testApp, user.token, { price: '10.00', price_type: 'EUR' });
  expect(record.base_value).toBe('11.74');
  expect(await importRates(testApp.app.db.orm, { asOf: '2026-11-20', rates: { EUR: '0.8', XAU: 0.0004 } })).toBe(2);
  expect(await rateOf('EUR')).toEqual({ per_usd: '0.80000000', as_of: '2026-11-20' });
  expect((await rateOf('XAU')).per_usd).toBe('0.00040000');
  expect((await rateOf('GBP')).as_of).toBe('2025-06-30');
  const [after] = (await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${user.token}`)).body;
  expect(after.base_value).toBe('12.50');
});

it.each([
  [{ asOf: '2026-02-30', rates: { EUR: '0.9' } }, 'asOf'],
  [{ asOf: '2026-11-20', rates: {} }, 'rates'],
  [{ asOf: '2026-11-20', rates: { EUR: '0.9', eur: '0.9' } }, 'rates'],
  [{ asOf: '2026-11-20', rates: { EUR: '0.9', JPY: '-1' } }, 'rates'],
  [{ asOf: '2026-11-20', rates: { EUR: '0.9', USD: '2' } }, 'rates'],
  [{ asOf: '2026-11-20', rates: { EUR: 'lots' } }, 'rates'],
])('refuses %p, naming %s, and changes nothing', async (file, field) => {
  const before = await rateOf('EUR');
  const error = await importRates(testApp.app.db.orm, file as never).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  expect(Object.keys((error as AppError).fieldErrors ?? {})).toContain(field);
  expect(await rateOf('EUR')).toEqual(before);
});

it('converts base_value through the dollar rates in exact decimal, two places, half away from zero', async () => {
  await importRates(testApp.app.db.orm, { asOf: '2026-11-21', rates: { EUR: '0.852', JPY: '144', CHF: '0.5' } });
  const inBase = async (baseCurrency: string, price: string, currency: string) => {
    const user = await signUp(testApp, 'Converter');
    await graphqlData(testApp, user.token, `mutation { updateProfile(input: {baseCurrency: "${baseCurrency}"}) { baseCurrency } }`);
    return (await createSubscription(testApp, user.token, { price, price_type: currency })).base_value;
  };
  expect(await inBase('EUR', '10.00', 'USD')).toBe('8.52');
  expect(await inBase('USD', '8.52', 'EUR')).toBe('10.00');
  expect(await inBase('EUR', '1000.00', 'JPY')).toBe('5.92');
  // 0.05 USD is 0.025 CHF exactly: half away from zero, where binary floats would give 0.02.
  expect(await inBase('CHF', '0.05', 'USD')).toBe('0.03');
  expect(await inBase('USD', '0.30', 'USD')).toBe('0.30');
});
