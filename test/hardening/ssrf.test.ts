import { Receiver } from '../support/receiver';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData as gql, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * The SSRF guard with private targets refused (the default): every internal address form is refused when an
 * endpoint is saved, and a name that resolves inward is refused again at connect time. (Redirects are never
 * followed: delivery-core.test.ts.)
 */
let guarded: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  guarded = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'false',
    NOTIFY_SECRET_KEY: 'ssrf-test-notify-secret-key-0123456789',
  });
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await guarded.close();
});

/**
 * IPv6 literals that spell a loopback or private IPv4 address: IPv4-compatible (::a.b.c.d, in every spelling
 * the URL parser takes), IPv4-mapped and -translated, NAT64 (well-known and local-use prefixes), 6to4 and
 * ISATAP with a zero prefix. Each is refused for webhook endpoints and for notification targets alike.
 */
const EMBEDDED_V4 = [
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[0:0:0:0:0:0:127.0.0.1]',
  '[::10.0.0.1]',
  '[::a00:1]',
  '[::192.168.1.10]',
  '[::169.254.169.254]',
  '[::ffff:10.0.0.1]',
  '[::ffff:0:127.0.0.1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::10.0.0.1]',
  '[64:ff9b::c0a8:10a]',
  '[64:ff9b:1::a00:1]',
  '[2002:a00:1::]',
  '[2002:7f00:1::1]',
  '[2002:c0a8:10a:1::1]',
  '[::5efe:127.0.0.1]',
  '[::5efe:10.0.0.1]',
];

describe('SSRF guard', () => {
  const refused = [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://sub.localhost/hook',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://224.0.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://0/',
    'ftp://example.com/hook',
    'http://user:pass@example.com/hook',
    'file:///etc/passwd',
    'not a url',
    // IPv4-compatible IPv6 (deprecated) and the other embeddings of an IPv4 address; a trailing root dot.
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::a9fe:a9fe]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001::1]/',
    'http://localhost./hook',
    'http://LOCALHOST../hook',
    'http://sub.localhost./hook',
    ...EMBEDDED_V4.map((host) => `http://${host}/hook`),
    ...EMBEDDED_V4.map((host) => `https://${host}:8443/hook`),
  ];
  it.each(refused)('refuses %s when the endpoint is saved', async (url) => {
    const user = await signUp(guarded, 'Guarded');
    const response = await graphql(
      guarded,
      user.token,
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { id } userErrors { field code } } }',
      {
        input: { url, events: [] },
      },
    );
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(response.body.errors[0].extensions.errors.url).toEqual(expect.any(Array));
    expect(response.body.data.createWebhookEndpoint).toEqual({
      webhookEndpoint: null,
      userErrors: [{ field: ['input', 'url'], code: 'BAD_USER_INPUT' }],
    });
  });

  it('accepts a public address', async () => {
    const user = await signUp(guarded, 'Public');
    const { createWebhookEndpoint } = await gql(
      guarded,
      user.token,
      'mutation { createWebhookEndpoint(input: {url: "https://hooks.example.com/subledger", events: []}) { webhookEndpoint { url } userErrors { code } } }',
    );
    expect(createWebhookEndpoint.userErrors).toEqual([]);
    expect(createWebhookEndpoint.webhookEndpoint.url).toBe('https://hooks.example.com/subledger');
  });

  it('accepts a public IPv6 address', async () => {
    const user = await signUp(guarded, 'Public IPv6');
    const { createWebhookEndpoint } = await gql(
      guarded,
      user.token,
      'mutation { createWebhookEndpoint(input: {url: "https://[2606:4700:4700::1111]/hook", events: []}) { webhookEndpoint { url } userErrors { code } } }',
    );
    expect(createWebhookEndpoint.userErrors).toEqual([]);
    expect(createWebhookEndpoint.webhookEndpoint.url).toBe('https://[2606:4700:4700::1111]/hook');
  });

  // The self-hosted schemes' hosts follow the same rule; the refusal names `url` and stores nothing.
  const targetUrls = (host: string) => [
    `ntfy://${host}/alerts`,
    `ntfys://user:pass@${host}/alerts`,
    `gotify://${host}/AppToken`,
    `gotifys://${host}:8443/gotify/AppToken`,
    `matrix://bot:token@${host}/!room:example.org`,
    `matrixs://token@${host}/!room:example.org`,
    `json://${host}/hook`,
    `jsons://hook:pw@${host}/hook?key=1`,
  ];
  it.each(EMBEDDED_V4)('refuses notification targets on %s when they are saved', async (host) => {
    const user = await signUp(guarded, 'Guarded targets');
    for (const url of targetUrls(host)) {
      const response = await graphql(
        guarded,
        user.token,
        'mutation($input: CreateNotificationTargetInput!) { createNotificationTarget(input: $input) { notificationTarget { id } userErrors { field code } } }',
        {
          input: { name: 'Inward', url },
        },
      );
      expect([url, response.body.errors?.[0].extensions.code]).toEqual([url, 'BAD_USER_INPUT']);
      expect([url, response.body.errors[0].extensions.errors.url[0]]).toEqual([
        url,
        expect.stringMatching(/loopback, private, link-local/),
      ]);
      expect([url, response.body.data.createNotificationTarget]).toEqual([
        url,
        { notificationTarget: null, userErrors: [{ field: ['input', 'url'], code: 'BAD_USER_INPUT' }] },
      ]);
    }
    expect(await sql(guarded, 'select "id" from "notification_targets" where "user_id" = ?', [user.id])).toEqual([]);
  });

  it('accepts notification targets on public hosts', async () => {
    const user = await signUp(guarded, 'Public targets');
    for (const url of [...targetUrls('ntfy.example.com'), ...targetUrls('[2606:4700:4700::1111]')]) {
      const response = await graphql(
        guarded,
        user.token,
        'mutation($input: CreateNotificationTargetInput!) { createNotificationTarget(input: $input) { notificationTarget { id } userErrors { field code } } }',
        {
          input: { name: 'Public', url },
        },
      );
      expect([url, response.body.errors]).toEqual([url, undefined]);
      expect([url, response.body.data.createNotificationTarget.userErrors]).toEqual([url, []]);
    }
  });

  it('refuses at connect time a name that resolves to an internal address (DNS rebinding)', async () => {
    const user = await signUp(guarded, 'Rebound');
    const port = new URL(receiver.url).port;
    // As if the name had resolved publicly when saved: the row is written directly.
    const [endpoint] = await sql<{ id: number }>(
      guarded,
      `insert into "webhook_endpoints" ("user_id", "url", "secret") values (?, ?, 'whsec_AAAA') returning "id"`,
      [user.id, `http://localhost:${port}/hook`],
    );
    await createSubscription(guarded, user.token);
    let attempt: { error: string } | undefined;
    for (
      const deadline = Date.now() + 10_000;
      !attempt && Date.now() < deadline;
      await new Promise((r) => setTimeout(r, 50))
    ) {
      [attempt] = await sql<{ error: string }>(
        guarded,
        'select a."error" from "webhook_delivery_attempts" a join "webhook_deliveries" d on d."id" = a."delivery_id" where d."endpoint_id" = ?',
        [endpoint.id],
      );
    }
    expect(attempt!.error).toMatch(/refused: localhost resolves to the internal address/);
    expect(receiver.received).toHaveLength(0);
  });
});
