import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import rawSql from 'sql-template-tag';

import { importRates } from '../../src/currency/rates.service';
import { AppError } from '../../src/platform/errors';
import { runCli } from '../support/service-process';
import { createSubscription, updateProfile } from '../support/subscriptions';
import { graphql, signUp, startTestApp, type TestApp } from '../support/test-app';
import { today } from '../support/test-clock';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

const rateOf = async (currency: string) =>
  (
    await testApp.app.db.orm.em
      .getConnection()
      .execute<{ per_usd: string; as_of: string }[]>(
        'select "per_usd", "as_of" from "exchange_rates" where "currency" = ?',
        [currency],
      )
  )[0];

it('refreshes listed rates in one go, adds new currencies, and base_value follows', async () => {
  const user = await signUp(testApp, 'Rates');
  const record = await createSubscription(testApp, user.token, { price: '10.00', price_type: 'EUR' });
  expect(record.base_value).toBe('11.74');
  expect(await importRates(testApp.app.db.orm, { asOf: '2026-11-20', rates: { EUR: '0.8', XAU: 0.0004 } })).toBe(2);
  expect(await rateOf('EUR')).toEqual({ per_usd: '0.80000000', as_of: '2026-11-20' });
  expect((await rateOf('XAU')).per_usd).toBe('0.00040000');
  expect((await rateOf('GBP')).as_of).toBe('2025-06-30');
  const [after] = (
    await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${user.token}`)
  ).body;
  expect(after.base_value).toBe('12.50');
});

it('lists the known currencies by code, a new one among them once its rate is kept, and only to a caller', async () => {
  const user = await signUp(testApp, 'Currencies');
  const ask = () => graphql(testApp, user.token, '{ currencies }');
  const { currencies } = (await ask()).body.data as { currencies: string[] };
  expect(currencies).toEqual([...currencies].sort());
  expect(currencies).toEqual(expect.arrayContaining(['EUR', 'JPY', 'USD']));
  expect(currencies).toHaveLength((await testApp.app.db.reads.rows(rawSql`select 1 from "exchange_rates"`)).length);
  expect(currencies).not.toContain('XPT');
  await importRates(testApp.app.db.orm, { asOf: '2026-11-21', rates: { XPT: '0.001' } });
  expect((await ask()).body.data.currencies).toContain('XPT');
  expect((await graphql(testApp, null, '{ currencies }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
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

describe('a rate the table cannot keep (checked as stored: 8 decimals, 12 digits before the point)', () => {
  const unkeepable: Array<[string, string | number]> = [
    ['a rate that rounds to 0', '1e-9'],
    ['a rate that rounds to 0, sent as a number', 1e-9],
    ['a rate that rounds to 0, written out', '0.000000004999'],
    ['a rate too large for the column', '1e12'],
    ['a rate that rounds up past the column', '999999999999.999999995'],
    ['a non-finite rate', 'Infinity'],
    ['a negative rate', '-0.5'],
  ];

  it.each(unkeepable)('refuses %s (%p), naming the currency, and stores nothing of the file', async (_label, rate) => {
    const before = await rateOf('EUR');
    const error = await importRates(testApp.app.db.orm, { asOf: today(), rates: { EUR: '0.5', XAU: rate } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors?.rates).toEqual([expect.stringContaining('XAU')]);
    expect(await rateOf('EUR')).toEqual(before);
    expect((await rateOf('XAU')).per_usd).toBe('0.00040000');
  });

  it('keeps the smallest and the largest rate the column holds', async () => {
    const asOf = today();
    expect(
      await importRates(testApp.app.db.orm, { asOf, rates: { XAG: '0.000000005', XPT: '999999999999.99999999' } }),
    ).toBe(2);
    expect(await rateOf('XAG')).toEqual({ per_usd: '0.00000001', as_of: asOf });
    expect((await rateOf('XPT')).per_usd).toBe('999999999999.99999999');
  });

  it('is refused by the CLI (npm run cli -- rates:import) with a message naming the currency, a non-zero exit and nothing stored', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'subledger-rates-'));
    const importFile = (file: string) => runCli(testApp.database.url, 'rates:import', '--file', file);
    const cli = (rates: Record<string, unknown>) => {
      const file = path.join(dir, 'rates.json');
      writeFileSync(file, JSON.stringify({ asOf: today(), rates }));
      return importFile(file);
    };
    try {
      const before = await rateOf('EUR');
      for (const rate of ['1e-9', 1e-9, '1e12']) {
        const refused = cli({ EUR: '0.5', XAU: rate });
        expect(refused.stderr).toContain('The rates file is invalid');
        expect(refused.stderr).toMatch(/XAU's rate \S+ (rounds to 0|is over the largest rate)/);
        expect(refused.stdout).toBe('');
        expect(refused.status).toBe(1);
        expect(await rateOf('EUR')).toEqual(before);
        expect((await rateOf('XAU')).per_usd).toBe('0.00040000');
      }
      // A file that is not there, or not JSON, is refused in a sentence, not a stack trace.
      const broken = path.join(dir, 'broken.json');
      writeFileSync(broken, '{"asOf": "');
      for (const [file, reason] of [
        [path.join(dir, 'missing.json'), 'cannot read the rates file'],
        [broken, 'is not JSON'],
      ]) {
        const refused = importFile(file);
        expect(refused.stderr).toContain(reason);
        expect(refused.stderr).not.toMatch(/^\s+at /m);
        expect(refused.status).toBe(1);
      }
      expect(await rateOf('EUR')).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it('converts base_value through the dollar rates in exact decimal, two places, half away from zero', async () => {
  await importRates(testApp.app.db.orm, { asOf: '2026-11-21', rates: { EUR: '0.852', JPY: '144', CHF: '0.5' } });
  const inBase = async (baseCurrency: string, price: string, currency: string) => {
    const user = await signUp(testApp, 'Converter');
    await updateProfile(testApp, user.token, { baseCurrency }, 'baseCurrency');
    return (await createSubscription(testApp, user.token, { price, price_type: currency })).base_value;
  };
  expect(await inBase('EUR', '10.00', 'USD')).toBe('8.52');
  expect(await inBase('USD', '8.52', 'EUR')).toBe('10.00');
  expect(await inBase('EUR', '1000.00', 'JPY')).toBe('5.92');
  // 0.05 USD is 0.025 CHF exactly: half away from zero, where binary floats would give 0.02.
  expect(await inBase('CHF', '0.05', 'USD')).toBe('0.03');
  expect(await inBase('USD', '0.30', 'USD')).toBe('0.30');
});
