import { createLogger } from '../../src/platform/logger';
import { expectErrorBody } from '../support/shapes';
import { type SignedUpUser, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

let testApp: TestApp;
let user: SignedUpUser;
let fresh: SignedUpUser;

async function signUpDirectly(app: TestApp): Promise<SignedUpUser> {
  const email = uniqueEmail();
  const password = 'correct horse battery';
  const { user, token } = await app.app.services.auth.signUp({ email, password, name: 'Frame' });
  return { id: user.id, email, password, token };
}

beforeAll(async () => {
  testApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '8' });
  // Made through the service: a sign-up over /graphql would spend this address's small request budget.
  user = await signUpDirectly(testApp);
  fresh = await signUpDirectly(testApp);
});
afterAll(() => testApp.close());

describe('error bodies', () => {
  it('answers an unknown path with a 404 JSON body', async () => {
    const response = await testApp.http.get('/no/such/path').set('accept', 'text/html');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expectErrorBody(response.body);
  });

  it('answers a malformed multipart body with 400 JSON', async () => {
    const response = await testApp.http
      .post('/api/v1/auth/login')
      .set('content-type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--xy');
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });

  it('answers multipart without a boundary with 400 JSON', async () => {
    const response = await testApp.http.post('/api/v1/auth/login').set('content-type', 'multipart/form-data').send('x');
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });

  it('answers a body over 1 MB with 413 JSON', async () => {
    const response = await testApp.http
      .post('/api/v1/auth/login')
      .field('email', 'a@example.com')
      .field('password', 'x'.repeat(1024 * 1024 + 10));
    expect(response.status).toBe(413);
    expectErrorBody(response.body);
  });

  it('answers broken JSON with 400 JSON', async () => {
    const response = await testApp.http
      .post('/api/v1/auth/login')
      .set('content-type', 'application/json')
      .send('{"email":');
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });

  it('answers an unsupported content type with 415 JSON', async () => {
    const response = await testApp.http.post('/api/v1/auth/login').set('content-type', 'text/plain').send('email=a');
    expect(response.status).toBe(415);
    expectErrorBody(response.body);
  });
});

describe('encodings and paths', () => {
  it('accepts URL-encoded and JSON logins as well as multipart', async () => {
    const urlencoded = await testApp.http
      .post('/api/v1/auth/login')
      .type('form')
      .send({ email: user.email, password: user.password });
    expect(urlencoded.status).toBe(201);
    const json = await testApp.http.post('/api/v1/auth/login').send({ email: user.email, password: user.password });
    expect(json.status).toBe(201);
  });

  it('accepts a trailing slash', async () => {
    const response = await testApp.http.get('/api/v1/auth/token/').set('authorization', `Bearer ${user.token}`);
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(user.id);
  });

  it('tags every answer with a request id, keeping a sane incoming one', async () => {
    const generated = await testApp.http.get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await testApp.http.get('/healthz').set('x-request-id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
  });

  it('below info logs no requests, but an unexpected error still with its request id', async () => {
    const lines: string[] = [];
    const quiet = await startTestApp(
      {},
      { logger: createLogger({ logLevel: 'warn' }, { write: (line: string) => void lines.push(line) }) },
    );
    try {
      const owner = await signUp(quiet);
      jest.spyOn(quiet.app.services.subscriptions, 'get').mockRejectedValueOnce(new Error('disk on fire'));
      const failed = await quiet.http
        .get('/api/v1/subscriptions/1')
        .set('authorization', `Bearer ${owner.token}`)
        .set('x-request-id', 'broken-1');
      expect(failed.status).toBe(500);
      expect(failed.headers['x-request-id']).toBe('broken-1');
      const entries = lines.map(
        (line) => JSON.parse(line) as { msg: string; reqId?: string; req?: unknown; err?: { message: string } },
      );
      expect(entries.filter((entry) => entry.req !== undefined)).toEqual([]);
      expect(entries.filter((entry) => entry.msg === 'unexpected error')).toEqual([
        expect.objectContaining({ reqId: 'broken-1', err: expect.objectContaining({ message: 'disk on fire' }) }),
      ]);
    } finally {
      jest.restoreAllMocks();
      await quiet.close();
    }
  });
});

describe('rate limit per token', () => {
  it('counts down in X-RateLimit headers and answers 429 with Retry-After past the limit', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${fresh.token}`);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('8');
      remaining.push(Number(response.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
    const refused = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${fresh.token}`);
    expect(refused.status).toBe(429);
    expectErrorBody(refused.body);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another token has its own budget.
    const other = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${user.token}`);
    expect(other.status).toBe(200);
  });
});
