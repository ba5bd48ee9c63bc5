import { request } from 'node:http';
import { connect } from 'node:net';

import { rowCounts } from '../support/hardening';
import { expectErrorBody } from '../support/shapes';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/** Size limits of requests, and the request rate limits per token and per address, each with a JSON answer. */
let testApp: TestApp;
let user: SignedUpUser;
let fresh: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '6' });
  user = await signUp(testApp, 'Limited');
  fresh = await signUp(testApp, 'Own budget');
});
afterAll(() => testApp.close());

/** One raw exchange with the server (for requests a well-behaved client library refuses to send). */
function raw(text: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(testApp.baseUrl).port), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => {
      const [head, body = ''] = answer.split('\r\n\r\n');
      resolve({
        status: Number(head.split(' ')[1]),
        contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '',
        body,
      });
    });
    socket.on('error', reject);
  });
}

describe('request size', () => {
  it('answers headers over 16 KB with 431 and a JSON error', async () => {
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const outgoing = request(
        `${testApp.baseUrl}/api/v1/auth/token`,
        { headers: { authorization: `Bearer ${user.token}`, 'x-padding': 'p'.repeat(20_000) } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    expectErrorBody(JSON.parse(answer.body));
  });

  it('answers a request that is not HTTP with 400 and a JSON error', async () => {
    const answer = await raw('HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/json/);
    expectErrorBody(JSON.parse(answer.body));
  });

  it('answers bodies over 1 MB with 413 on REST and on GraphQL, and stores nothing', async () => {
    const before = await rowCounts(testApp);
    const big = 'n'.repeat(1024 * 1024 + 1);
    const multipart = await postSubscription(testApp, user.token, { ...MINIMAL, note: big });
    const form = await testApp.http
      .put('/api/v1/settings/extension')
      .set('authorization', `Bearer ${user.token}`)
      .type('form')
      .send({ notify_before: '1', padding: big });
    const graphql = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${user.token}`)
      .set('content-type', 'application/json')
      .send({ query: `{ me { id } }`, variables: { padding: big } });
    for (const response of [multipart, form]) {
      expect(response.status).toBe(413);
      expectErrorBody(response.body);
    }
    expect(graphql.status).toBe(413);
    expect(graphql.headers['content-type']).toMatch(/json/);
    expect(await rowCounts(testApp)).toEqual(before);
  });

  it('answers more than 200 form fields with 413', async () => {
    const fields = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}`, 'x']));
    const response = await postSubscription(testApp, user.token, { ...MINIMAL, ...fields });
    expect(response.status).toBe(413);
    expectErrorBody(response.body);
  });
});

describe('request rate', () => {
  it('counts concurrent failed logins without failing one (the throttle store under load)', async () => {
    // An app with the default request rate, so only the login throttle speaks.
    const roomy = await startTestApp();
    try {
      const someone = await signUp(roomy, 'Throttled');
      const attempts = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          roomy.http
            .post('/api/v1/auth/login')
            .field('email', i % 2 ? someone.email : `nobody${i}@example.com`)
            .field('password', 'not the password'),
        ),
      );
      expect(attempts.map((response) => response.status)).toEqual(Array(24).fill(401));
      for (const response of attempts) expectErrorBody(response.body);
    } finally {
      await roomy.close();
    }
  });

  it('limits each address without a token and each token separately, with 429, Retry-After and a JSON error', async () => {
    // Without a token the budget is the address's (the unknown path still counts, then answers 401).
    // The two GraphQL sign-ups of beforeAll came from this address too: /graphql shares the budget.
    const anonymous: number[] = [];
    for (let i = 0; i < 7; i++) anonymous.push((await testApp.http.get('/api/v1/auth/token')).status);
    expect(anonymous).toEqual([401, 401, 401, 401, 429, 429, 429]);
    const refused = await testApp.http.get('/api/v1/auth/token');
    expect(refused.status).toBe(429);
    expectErrorBody(refused.body);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same address with a token has the token's own budget.
    const withToken: number[] = [];
    for (let i = 0; i < 7; i++)
      withToken.push(
        (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${fresh.token}`)).status,
      );
    expect(withToken).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});
