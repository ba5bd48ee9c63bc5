import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';

import { generate } from 'selfsigned';

import { provisionDatabase, type TestDatabase } from '../support/database';
import { dropRedisPrefix } from '../support/redis-keys';
import { type ServiceProcess, startService, stopService } from '../support/service-process';
import { freePort } from '../support/wait';

/**
 * The `…s` schemes (ntfys, gotifys, matrixs, jsons) reach their service over TLS, its certificate verified.
 * The service runs as `npm start` runs it (the built dist/), so the test's own certificate authority can be
 * trusted the way an operator trusts a private one, through NODE_EXTRA_CA_CERTS: no code path or setting
 * exists for tests, and the jest process trusts nothing new. (A plain-HTTP listener gets nothing from these
 * schemes: notifications.test.ts.)
 */
interface TlsRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The TLS version the request came over. */
  protocol: string | null;
}

/** An HTTPS receiver on loopback with the given certificate, recording what arrives. */
async function tlsReceiver(
  key: string,
  cert: string,
): Promise<{ server: Server; origin: string; received: TlsRequest[] }> {
  const received: TlsRequest[] = [];
  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const protocol = (req.socket as TLSSocket).getProtocol();
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        protocol,
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** A certificate for 127.0.0.1 made now, valid from years before the test clock to years after it. */
function certificate() {
  const year = 365 * 24 * 3600 * 1000;
  return generate([{ name: 'commonName', value: 'subledger-test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 5 * year),
    notAfterDate: new Date(Date.now() + 5 * year),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
}

let dir: string;
let database: TestDatabase;
let service: ServiceProcess;
let trusted: Awaited<ReturnType<typeof tlsReceiver>>;
let untrusted: Awaited<ReturnType<typeof tlsReceiver>>;
const redisPrefix = `subledger-test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  const [good, other] = await Promise.all([certificate(), certificate()]);
  trusted = await tlsReceiver(good.private, good.cert);
  untrusted = await tlsReceiver(other.private, other.cert);
  dir = mkdtempSync(path.join(tmpdir(), 'subledger-tls-'));
  const caFile = path.join(dir, 'test-ca.pem');
  writeFileSync(caFile, good.cert);
  database = await provisionDatabase();
  service = await startService(
    {
      DATABASE_URL: database.url,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: redisPrefix } : {}),
      DATA_DIR: dir,
      NOTIFY_SECRET_KEY: 'notification-tls-test-secret-key-0123456789',
      // The receivers are on loopback.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NODE_EXTRA_CA_CERTS: caFile,
    },
    await freePort(),
  );
}, 90_000);
afterAll(async () => {
  if (service) await stopService(service);
  await new Promise((resolve) => trusted?.server.close(resolve));
  await new Promise((resolve) => untrusted?.server.close(resolve));
  await database?.drop();
  await dropRedisPrefix(process.env.REDIS_URL, redisPrefix);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function graphql(
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Record<string, any>> {
  const response = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, any>; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data!;
}

const DELIVERY_FIELDS = 'status attempts { statusCode error }';

async function sendTest(token: string, url: string) {
  const {
    createNotificationTarget: { notificationTarget: target },
  } = await graphql(
    token,
    'mutation($input: CreateNotificationTargetInput!) { createNotificationTarget(input: $input) { notificationTarget { id url } } }',
    { input: { name: 'TLS', url } },
  );
  const {
    sendTestNotification: { delivery: sendTestNotification },
  } = await graphql(
    token,
    `mutation($input: SendTestNotificationInput!) { sendTestNotification(input: $input) { delivery { ${DELIVERY_FIELDS} } } }`,
    { input: { id: target.id } },
  );
  return {
    masked: target.url as string,
    delivery: sendTestNotification as {
      status: string;
      attempts: { statusCode: number | null; error: string | null }[];
    },
  };
}

it('sends ntfys, gotifys, matrixs and jsons targets over TLS to a server whose certificate is trusted, and to no other', async () => {
  const { signUp } = await graphql(
    null,
    'mutation { signUp(input: {email: "tls@example.com", password: "over tls only", name: "TLS"}) { token } }',
  );
  const host = trusted.origin;
  const cases = [
    {
      url: `ntfys://ann:TlsPassX1@${host}/TlsTopicX1`,
      masked: `ntfys://ann:****@${host}/****`,
      path: '/',
      header: ['authorization', `Basic ${Buffer.from('ann:TlsPassX1').toString('base64')}`],
    },
    {
      url: `gotifys://${host}/gotify/TlsTokenX1`,
      masked: `gotifys://${host}/gotify/****`,
      path: '/gotify/message',
      header: ['x-gotify-key', 'TlsTokenX1'],
    },
    {
      url: `matrixs://bot:syt_TlsTokenX2@${host}/!room:example.org`,
      masked: `matrixs://bot:****@${host}/!room:example.org`,
      path: '/_matrix/client/v3/rooms/!room%3Aexample.org/send/m.room.message/',
      header: ['authorization', 'Bearer syt_TlsTokenX2'],
    },
    {
      url: `jsons://hook:TlsPassX2@${host}/in/TlsHookX1`,
      masked: `jsons://hook:****@${host}/****`,
      path: '/in/TlsHookX1',
      header: ['authorization', `Basic ${Buffer.from('hook:TlsPassX2').toString('base64')}`],
    },
  ];
  for (const [index, { url, masked, path: expectedPath, header }] of cases.entries()) {
    const { masked: shown, delivery } = await sendTest(signUp.token, url);
    expect([url, shown, delivery]).toEqual([
      url,
      masked,
      { status: 'SUCCEEDED', attempts: [{ statusCode: 200, error: null }] },
    ]);
    // The attempt is recorded after the answer, so the request is here.
    const request = trusted.received[index];
    expect([url, request.url.startsWith(expectedPath), request.protocol, request.headers[header[0]]]).toEqual([
      url,
      true,
      expect.stringMatching(/^TLSv1\.[23]$/),
      header[1],
    ]);
  }
  expect(trusted.received).toHaveLength(cases.length);

  // A certificate the service does not trust: the handshake fails, and nothing is sent.
  const { delivery } = await sendTest(signUp.token, `gotifys://${untrusted.origin}/UntrustedTokenX1`);
  expect(delivery).toEqual({
    status: 'PENDING',
    // Node 22 and later add a hint (--use-system-ca) after OpenSSL's reason.
    attempts: [
      {
        statusCode: null,
        error: expect.stringMatching(
          new RegExp(
            `^TLS handshake with ${untrusted.origin} failed: self-signed certificate(;[^(]*)? \\(DEPTH_ZERO_SELF_SIGNED_CERT\\)$`,
          ),
        ),
      },
    ],
  });
  expect(untrusted.received).toEqual([]);
});
