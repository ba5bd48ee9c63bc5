import { type IncomingHttpHeaders, request } from 'node:http';
import zlib from 'node:zlib';

import { Client } from 'pg';

import * as compression from '../../src/platform/web/compression';
import { createSubscription } from '../support/subscriptions';
import { type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * On the wire: answers compressed for clients that ask for it (kept answers compressed once and sent as kept
 * from then on), and the answers of records with an ETag that a conditional GET revalidates without a read.
 */
let testApp: TestApp;
/** The same service keeping no answers, so that every read of records reaches the database. */
let keepsNone: TestApp;
let user: SignedUpUser;
let recordId: number;
let shiftMs = 0;
const clock = () => new Date(Date.now() + shiftMs);

beforeAll(async () => {
  testApp = await startTestApp({}, { clock });
  keepsNone = await startTestApp({ ANSWER_CACHE_MB: '0' }, { clock }, testApp.database);
  user = await signUp(testApp, 'Wire Reader');
  // Enough records for answers past the 1 KB below which nothing is compressed.
  for (let i = 0; i < 8; i++)
    recordId = (await createSubscription(testApp, user.token, { price: `${10 + i}.00` })).id as number;
});
afterAll(async () => {
  await keepsNone.close();
  await testApp.close();
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, before any decoding. */
  body: Buffer;
}

/** A request over plain node:http, which decodes nothing (supertest would undo the compression unseen). */
function send(app: TestApp, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      new URL(path, app.baseUrl),
      { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${user.token}`, ...headers } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode!, headers: incoming.headers, body: Buffer.concat(chunks) }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The answer's JSON, decoded as its Content-Encoding says; a download's time of making aside. */
function decoded(answer: RawAnswer): unknown {
  const coding = answer.headers['content-encoding'];
  const bytes =
    coding === 'gzip'
      ? zlib.gunzipSync(answer.body)
      : coding === 'br'
        ? zlib.brotliDecompressSync(answer.body)
        : coding === 'deflate'
          ? zlib.inflateSync(answer.body)
          : answer.body;
  const { exportedAt: _, ...json } = JSON.parse(bytes.toString()) as Record<string, unknown>;
  return json;
}

const PAGE =
  '{ subscriptions(first: 20, orderBy: {field: ID, direction: ASC}) { totalCount edges { node { id productName price { amount currency } paymentDate nextPaymentDate basePrice { amount currency } timezone } } } }';
const graphqlBody = JSON.stringify({ query: PAGE });
const JSON_TYPE = { 'content-type': 'application/json' };

/** The routes compared: each answer of records, a JSON download through the middleware, and GraphQL. */
const ROUTES: Array<[name: string, read: (app: TestApp, headers: Record<string, string>) => Promise<RawAnswer>]> = [
  ['the record list', (app, headers) => send(app, '/api/v1/subscriptions?sort=id&length=50', headers)],
  ['upcoming payments', (app, headers) => send(app, '/api/v1/subscriptions/upcoming?days=40', headers)],
  ['the calendar', (app, headers) => send(app, '/api/v1/calendar', headers)],
  ['the account download', (app, headers) => send(app, '/export/account.json', headers)],
  ['GraphQL', (app, headers) => send(app, '/graphql', { ...JSON_TYPE, ...headers }, graphqlBody)],
];

describe('compression', () => {
  it.each(['gzip', 'br'])(
    'sends %s to a client that asks for it, on every route alike, decoding to the answer sent uncompressed',
    async (coding) => {
      for (const app of [testApp, keepsNone]) {
        for (const [name, read] of ROUTES) {
          const plain = await read(app, { 'accept-encoding': 'identity' });
          expect([name, plain.status, plain.headers['content-encoding']]).toEqual([name, 200, undefined]);
          expect(plain.body.length).toBeGreaterThan(1024);
          // Twice: made (or kept) the first time, and from what is kept the second.
          for (const attempt of [1, 2]) {
            const compressed = await read(app, { 'accept-encoding': coding });
            expect([name, attempt, compressed.status, compressed.headers['content-encoding']]).toEqual([
              name,
              attempt,
              200,
              coding,
            ]);
            expect(compressed.headers.vary).toMatch(/Accept-Encoding/i);
            expect(compressed.body.length).toBeLessThan(plain.body.length);
            expect(decoded(compressed)).toEqual(decoded(plain));
          }
        }
      }
    },
  );

  it('leaves small answers, clients that ask for no compression and what is not JSON alone', async () => {
    const health = await send(testApp, '/healthz', { 'accept-encoding': 'gzip, br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(decoded(health)).toEqual({ status: 'ok' });
    const list = await send(testApp, '/api/v1/subscriptions?sort=id', {});
    expect(list.headers['content-encoding']).toBeUndefined();
    // Nor anything but JSON: a page's script would be compressed anew on every request.
    const script = await send(testApp, '/graphql/assets/graphiql.js', { 'accept-encoding': 'gzip, br' });
    expect([script.status, script.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it('reads Accept-Encoding as HTTP does: any case, weights, and q=0 refusing a coding', async () => {
    const download = (acceptEncoding: string) =>
      send(testApp, '/export/account.json', { 'accept-encoding': acceptEncoding });
    for (const [acceptEncoding, coding] of [
      ['GZip;q=0.5', 'gzip'],
      ['deflate, BR', 'br'],
      ['gzip;q=0, deflate', 'deflate'],
      ['gzip;q=0', undefined],
      ['compress, x-unknown', undefined],
    ] as const) {
      const answer = await download(acceptEncoding);
      expect([acceptEncoding, answer.status, answer.headers['content-encoding']]).toEqual([
        acceptEncoding,
        200,
        coding,
      ]);
      expect(decoded(answer)).toEqual(decoded(await download('identity')));
    }
  });

  it('sends a kept answer again as the compressed bytes kept, compressing nothing', async () => {
    const compress = jest.spyOn(compression, 'compress');
    try {
      for (const [name, read] of ROUTES.filter(([route]) => route !== 'the account download')) {
        // A write moves the version: the next answer is made afresh (by Apollo, for GraphQL: its bytes are
        // kept as it sends them), and its kept bytes are compressed once, the first time they are sent.
        await createSubscription(testApp, user.token, { price: '1.00' });
        compress.mockClear();
        await read(testApp, { 'accept-encoding': 'gzip' });
        const kept = await read(testApp, { 'accept-encoding': 'gzip' });
        expect([name, compress.mock.calls.length]).toEqual([name, 1]);
        compress.mockClear();
        const again = await read(testApp, { 'accept-encoding': 'gzip' });
        expect(again.headers['content-encoding']).toBe('gzip');
        expect(again.body.equals(kept.body)).toBe(true);
        expect([name, compress.mock.calls.length]).toEqual([name, 0]);
        // Its length known beforehand: the middleware, which compresses as it sends, did not touch it either.
        expect(again.headers['content-length']).toBe(String(again.body.length));
        // Another coding is compressed once more, and kept beside it.
        await read(testApp, { 'accept-encoding': 'br' });
        await read(testApp, { 'accept-encoding': 'br' });
        expect([name, compress.mock.calls.map(([, coding]) => coding)]).toEqual([name, ['br']]);
      }
    } finally {
      compress.mockRestore();
    }
  });
});

describe('an answer made afresh', () => {
  it.each(['/api/v1/subscriptions?sort=id', '/api/v1/subscriptions/upcoming?days=40'])(
    'goes out whole, with its length, as a kept one does (%s)',
    async (path) => {
      const kept = await send(testApp, path, {});
      const afresh = await send(keepsNone, path, {});
      expect(afresh.status).toBe(200);
      expect(afresh.headers['transfer-encoding']).toBeUndefined();
      expect(afresh.headers['content-length']).toBe(String(afresh.body.length));
      const records = JSON.parse(afresh.body.toString('utf8')) as Array<{ id: number }>;
      expect(records).toEqual(JSON.parse(kept.body.toString('utf8')));
      expect(records.length).toBeGreaterThan(0);
    },
  );
});

describe('ETag', () => {
  const paths = () => [
    '/api/v1/subscriptions?sort=id',
    '/api/v1/subscriptions/upcoming?days=40',
    `/api/v1/subscriptions/${recordId}`,
    '/api/v1/calendar',
  ];
  const get = (app: TestApp, path: string, etag?: string) => {
    const request = app.http.get(path).set('authorization', `Bearer ${user.token}`);
    return etag === undefined ? request : request.set('if-none-match', etag);
  };

  it('answers 304 with no body while If-None-Match names the ETag, without reading any record', async () => {
    const tags = new Map<string, string>();
    for (const path of paths()) {
      const answer = await get(keepsNone, path).expect(200);
      expect(answer.headers.etag).toMatch(/^W\/"[\w-]+"$/);
      tags.set(path, answer.headers.etag);
    }
    // Every read of records would wait for this lock (and keepsNone reads them for every answer it sends).
    const locker = new Client({ connectionString: testApp.database.url });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table "subscriptions" in access exclusive mode');
      for (const path of paths()) {
        const answer = await get(keepsNone, path, `"other", ${tags.get(path)!}`)
          .timeout(5_000)
          .expect(304);
        expect(answer.text).toBe('');
        expect(answer.headers.etag).toBe(tags.get(path));
      }
      // The lock holds: an unconditional read is still waiting for it.
      let answered = false;
      const reading = get(keepsNone, paths()[0]).then((answer) => {
        answered = true;
        return answer;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(answered).toBe(false);
      await locker.query('commit');
      expect((await reading).status).toBe(200);
    } finally {
      await locker.end();
    }
  });

  it('answers 200 to an If-None-Match that names another ETag, or one of another request', async () => {
    const [list, upcoming] = paths();
    const tag = (await get(testApp, list).expect(200)).headers.etag;
    expect((await get(testApp, list, 'W/"something else"').expect(200)).headers.etag).toBe(tag);
    const other = await get(testApp, upcoming, tag).expect(200);
    expect(other.headers.etag).not.toBe(tag);
  });

  it('changes after a write of the user, and in the next quarter-hour', async () => {
    for (const path of paths()) {
      const before = (await get(testApp, path).expect(200)).headers.etag;
      await get(testApp, path, before).expect(304);
      await testApp.http
        .put(`/api/v1/subscriptions/${recordId}`)
        .set('authorization', `Bearer ${user.token}`)
        .type('form')
        .send({ price: '99.00' });
      const written = await get(testApp, path, before).expect(200);
      expect(written.headers.etag).not.toBe(before);
      await get(testApp, path, written.headers.etag).expect(304);
      shiftMs += 15 * 60 * 1000;
      const later = await get(testApp, path, written.headers.etag).expect(200);
      expect(later.headers.etag).not.toBe(written.headers.etag);
      expect([before, written.headers.etag]).not.toContain(later.headers.etag);
    }
  });

  it('is sent on the answer alone, not on a refusal', async () => {
    const missing = await get(testApp, '/api/v1/subscriptions/999999999').expect(400);
    expect(missing.headers.etag).toBeUndefined();
  });
});
