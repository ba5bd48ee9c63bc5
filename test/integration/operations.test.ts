import { startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

it('/healthz answers while the process is up', async () => {
  const response = await testApp.http.get('/healthz');
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ status: 'ok' });
});

it('/readyz checks the database and the queue', async () => {
  const response = await testApp.http.get('/readyz');
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    status: 'ok',
    database: 'ok',
    queue: testApp.config.redisUrl ? 'ok' : 'in-process',
    // The shipped rates, never refreshed (the tests turn the refresh off).
    rates: { asOf: '2025-06-30', lastRefreshAt: null, lastSuccessAt: null, error: null },
  });
});

it('/metrics asks for METRICS_TOKEN as a Bearer token when it is set', async () => {
  const guarded = await startTestApp({ METRICS_TOKEN: 'metrics-secret' });
  try {
    expect((await guarded.http.get('/metrics')).status).toBe(401);
    expect((await guarded.http.get('/metrics').set('authorization', 'Bearer wrong')).status).toBe(401);
    const allowed = await guarded.http.get('/metrics').set('authorization', 'Bearer metrics-secret');
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('http_request_duration_seconds');
  } finally {
    await guarded.close();
  }
});

it('/metrics exposes request durations by route and status, and the delivery queue', async () => {
  await testApp.http.get('/api/v1/auth/token');
  const response = await testApp.http.get('/metrics');
  expect(response.status).toBe(200);
  expect(response.text).toMatch(
    /http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\}|http_request_duration_seconds_count\{[^}]*route="[^"]+"/,
  );
  expect(response.text).toContain('status="401"');
  expect(response.text).toContain('webhook_deliveries{status="PENDING"} 0');
  expect(response.text).toContain('process_resident_memory_bytes');
});

it('serves the default images that records point to', async () => {
  const response = await testApp.http.get('/static/default-product.svg');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/image\/svg\+xml/);
});

it('answers names of object properties under /static as unknown routes', async () => {
  for (const name of ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
    const response = await testApp.http.get(`/static/${name}`);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body).toEqual({ status: false, message: `No route for GET /static/${name}` });
  }
});
