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
  guarded = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'false' });
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await guarded.close();
});

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
  ];
  it.each(refused)('refuses %s when the endpoint is saved', async (url) => {
    const user = await signUp(guarded, 'Guarded');
    const response = await graphql(guarded, user.token, 'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id } }', {
      input: { url, events: [] },
    });
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(response.body.errors[0].extensions.errors.url).toEqual(expect.any(Array));
  });

  it('accepts a public address', async () => {
    const user = await signUp(guarded, 'Public');
    const { createWebhookEndpoint } = await gql(
      guarded,
      user.token,
      'mutation { createWebhookEndpoint(input: {url: "https://hooks.example.com/subledger", events: []}) { url } }',
    );
    expect(createWebhookEndpoint.url).toBe('https://hooks.example.com/subledger');
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
    for (const deadline = Date.now() + 10_000; !attempt && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
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
