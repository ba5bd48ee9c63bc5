import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { ExchangeRateRepository } from '../../src/currency/exchange-rate.repository';
import { RatesRefreshService } from '../../src/currency/rates.service';
import { DataSource } from '../../src/platform/db/data-source';
import { provisionDatabase } from '../support/database';
import { createSubscription } from '../support/subscriptions';
import { signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/**
 * The scheduled exchange-rate refresh against a local source that answers what it is told: the ECB's daily
 * XML, a Frankfurter JSON answer, or a failure (down, slow, garbage, implausible). A failure keeps the rates.
 */
const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/rates', name), 'utf8');
const ECB = fixture('eurofxref-daily.xml');
const FRANKFURTER = fixture('frankfurter-latest.json');

let testApp: TestApp;
let source: Server;
let sourceUrl: string;
/** What the source answers next, and how many requests it had. */
let answer: { status: number; body: string; delayMs?: number };
let requests = 0;

beforeAll(async () => {
  source = createServer((_req, res) => {
    requests += 1;
    const { status, body, delayMs = 0 } = answer;
    setTimeout(
      () =>
        res
          .writeHead(status, { 'content-type': body.startsWith('<') ? 'application/xml' : 'application/json' })
          .end(body),
      delayMs,
    );
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/eurofxref-daily.xml`;
  testApp = await startTestApp({ RATES_URL: sourceUrl });
});
afterAll(async () => {
  await testApp.close();
  source.closeAllConnections();
  await new Promise<void>((resolve) => source.close(() => resolve()));
});

const rates = async (app: TestApp = testApp) =>
  Object.fromEntries(
    (
      await sql<{ currency: string; per_usd: string; as_of: string }>(
        app,
        `select "currency", "per_usd", "as_of"::text as "as_of" from "exchange_rates"`,
      )
    ).map((row) => [row.currency, `${row.per_usd} @ ${row.as_of}`]),
  );
const readiness = async () => (await testApp.http.get('/readyz')).body.rates as Record<string, string | null>;
const metric = async (name: string) =>
  Number(new RegExp(`^${name} (\\S+)$`, 'm').exec((await testApp.http.get('/metrics')).text)?.[1]);

describe('a refresh', () => {
  it('takes the ECB daily XML: per-euro rates become per-dollar ones, one as-of date, others kept; base_value follows', async () => {
    const user = await signUp(testApp, 'Rates');
    const record = await createSubscription(testApp, user.token, { price: '10.00', price_type: 'EUR' });
    expect(record.base_value).toBe('11.74'); // 10 / 0.8520, the shipped rate

    answer = { status: 200, body: ECB };
    expect(await testApp.app.services.rates.refresh()).toBeNull();
    const after = await rates();
    expect(after).toMatchObject({
      USD: '1.00000000 @ 2026-11-20',
      EUR: '0.86206897 @ 2026-11-20', // 1 / 1.16
      JPY: '145.25862069 @ 2026-11-20', // 168.50 / 1.16
      GBP: '0.74827586 @ 2026-11-20',
      ZAR: '17.28448276 @ 2026-11-20',
      ARS: '1180.00000000 @ 2025-06-30', // not published by the ECB: kept
    });
    const [reread] = (
      await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${user.token}`)
    ).body;
    expect(reread.base_value).toBe('11.60'); // 10 / 0.86206897
    expect(await readiness()).toEqual({
      asOf: '2026-11-20',
      lastRefreshAt: expect.stringMatching(/Z$/),
      lastSuccessAt: expect.stringMatching(/Z$/),
      error: null,
    });
    expect(await metric('exchange_rates_refresh_failing')).toBe(0);
    expect(await metric('exchange_rates_age_days')).toBeGreaterThanOrEqual(0);
  });

  it('takes a Frankfurter-compatible JSON answer on any base', async () => {
    answer = { status: 200, body: FRANKFURTER.replace('"date":"2026-11-20"', '"date":"2026-11-21"') };
    expect(await testApp.app.services.rates.refresh()).toBeNull();
    expect(await rates()).toMatchObject({
      USD: '1.00000000 @ 2026-11-21',
      EUR: '0.86207000 @ 2026-11-21',
      SGD: '1.30000000 @ 2026-11-21',
    });
  });
});

describe('a failed refresh keeps the old rates, says why in /readyz and the metrics, and is never fatal', () => {
  const cases: Array<[string, () => Promise<string | null>, RegExp]> = [
    [
      'a source that answers 503',
      () => ((answer = { status: 503, body: 'maintenance' }), testApp.app.services.rates.refresh()),
      /answered 503/,
    ],
    [
      'garbage',
      () => ((answer = { status: 200, body: 'hello, not rates' }), testApp.app.services.rates.refresh()),
      /neither the ECB XML nor JSON/,
    ],
    [
      'HTML',
      () => ((answer = { status: 200, body: '<html><body>Moved</body></html>' }), testApp.app.services.rates.refresh()),
      /date "" is not a date/,
    ],
    [
      'no dollar to convert through',
      () => (
        (answer = { status: 200, body: ECB.replace(/<Cube currency='USD'[^>]*>/, '') }),
        testApp.app.services.rates.refresh()
      ),
      /no US dollar rate/,
    ],
    [
      'a rate that is not positive',
      () => (
        (answer = { status: 200, body: ECB.replace("rate='168.50'", "rate='-1'") }),
        testApp.app.services.rates.refresh()
      ),
      /rate of "JPY" is not a positive number/,
    ],
    [
      'an implausible jump (a unit error)',
      () => (
        (answer = { status: 200, body: ECB.replace("rate='168.50'", "rate='16850'") }),
        testApp.app.services.rates.refresh()
      ),
      /JPY would move from .* more than 2×/,
    ],
    [
      // Stored at 8 places it would be 0, and every record in that currency would divide by zero: the whole
      // answer is refused, the rates it did publish well included.
      'a rate that rounds to 0 per dollar',
      () => (
        (answer = {
          status: 200,
          body: ECB.replace("<Cube currency='JPY'", "<Cube currency='XTS' rate='1e-9'/><Cube currency='JPY'"),
        }),
        testApp.app.services.rates.refresh()
      ),
      /XTS's rate \S+ rounds to 0 at 8 decimals/,
    ],
    [
      'a rate that rounds to 0 per dollar, written out',
      () => (
        (answer = {
          status: 200,
          body: ECB.replace("<Cube currency='JPY'", "<Cube currency='XTS' rate='0.000000004'/><Cube currency='JPY'"),
        }),
        testApp.app.services.rates.refresh()
      ),
      /XTS's rate \S+ rounds to 0 at 8 decimals/,
    ],
    [
      'a rate too large for the table',
      () => (
        (answer = {
          status: 200,
          body: ECB.replace("<Cube currency='JPY'", "<Cube currency='XTS' rate='1e15'/><Cube currency='JPY'"),
        }),
        testApp.app.services.rates.refresh()
      ),
      /XTS's rate \S+ is over the largest rate kept/,
    ],
    [
      'a date in the future',
      () => (
        (answer = { status: 200, body: ECB.replace("time='2026-11-20'", "time='2099-01-01'") }),
        testApp.app.services.rates.refresh()
      ),
      /as-of date "2099-01-01"/,
    ],
    [
      'a slow source',
      () => {
        answer = { status: 200, body: ECB, delayMs: 1_000 };
        const data = new DataSource(testApp.app.db.orm);
        const impatient = new RatesRefreshService(
          data,
          new ExchangeRateRepository(data),
          { ratesUrl: sourceUrl },
          testApp.app.logger,
          () => new Date(),
          100,
        );
        return impatient.refresh();
      },
      /did not answer within 100 ms/,
    ],
    [
      'a source that is down',
      () => {
        const data = new DataSource(testApp.app.db.orm);
        return new RatesRefreshService(
          data,
          new ExchangeRateRepository(data),
          { ratesUrl: 'http://127.0.0.1:9/rates.xml' },
          testApp.app.logger,
        ).refresh();
      },
      /fetch failed/,
    ],
  ];

  it.each(cases)('%s', async (_label, refresh, reason) => {
    const before = await rates();
    const { lastSuccessAt } = await readiness();
    expect(await refresh()).toMatch(reason);
    expect(await rates()).toEqual(before);
    expect(await readiness()).toEqual({
      asOf: '2026-11-21',
      lastRefreshAt: expect.stringMatching(/Z$/),
      lastSuccessAt,
      error: expect.stringMatching(reason),
    });
    expect(await metric('exchange_rates_refresh_failing')).toBe(1);
    expect((await testApp.http.get('/readyz')).status).toBe(200);
  });
});

it('runs on its schedule at start (RATES_REFRESH=daily), and a restart soon after does not fetch again', async () => {
  const database = await provisionDatabase();
  try {
    answer = { status: 200, body: ECB };
    requests = 0;
    const first = await startTestApp({ RATES_REFRESH: 'daily', RATES_URL: sourceUrl }, {}, database);
    await until(async () => (await rates(first)).EUR === '0.86206897 @ 2026-11-20', 'the refresh at start');
    await first.close();
    expect(requests).toBe(1);
    const second = await startTestApp({ RATES_REFRESH: 'daily', RATES_URL: sourceUrl }, {}, database);
    const body = (await second.http.get('/readyz')).body;
    await second.close();
    expect(body.rates).toMatchObject({ asOf: '2026-11-20', error: null });
    expect(requests).toBe(1);
  } finally {
    await database.drop();
  }
});
