import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { signWebhook } from '../../src/webhooks/signature';
import { provisionDatabase } from '../support/database';
import { FakeSmtp } from '../support/fake-smtp';
import { type ReceivedRequest, Receiver } from '../support/receiver';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/**
 * Notification targets end to end: each scheme's request checked against a local fake of the service (one
 * loopback receiver stands in for all of them, the hosted ones through NOTIFY_*_API), retried after a 5xx,
 * masked in every read; reminders deliver once per target through the delivery machinery.
 */
let now = new Date('2026-03-20T12:00:00Z');
const clock = () => now;
const SECRET_KEY = 'notifications-test-secret-key-0123456789';
let testApp: TestApp;
let fake: Receiver;
const smtp = new FakeSmtp();
const mails = smtp.messages;
let base: string;

beforeAll(async () => {
  fake = new Receiver();
  await fake.start();
  base = new URL(fake.url).origin;
  await smtp.start();
  testApp = await startTestApp(appEnv(), { clock });
});
beforeEach(() => {
  now = new Date('2026-03-20T12:00:00Z');
  fake.received.length = 0;
  fake.script = [];
});
afterAll(async () => {
  await testApp.close();
  await fake.stop();
  await smtp.stop();
});

function appEnv(): Record<string, string> {
  return {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    NOTIFY_SECRET_KEY: SECRET_KEY,
    NOTIFY_TELEGRAM_API: base,
    NOTIFY_DISCORD_API: base,
    NOTIFY_PUSHOVER_API: base,
    NOTIFY_SLACK_API: `${base}/`,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SMTP_FROM: 'Subledger <test@example.com>',
    BASE_URL: 'https://subledger.example.com',
  };
}

const DELIVERY_FIELDS_TEXT =
  'id legacyId topic endpointId targetId status attemptCount attempts { attemptNumber statusCode responseExcerpt error }';
const TARGET_FIELDS = 'id legacyId name scheme url createdAt updatedAt';
const CREATE_TARGET = `mutation($input: CreateNotificationTargetInput!) {
  createNotificationTarget(input: $input) { notificationTarget { ${TARGET_FIELDS} } secret userErrors { field code message } }
}`;
const SEND_TEST = `mutation($input: SendTestNotificationInput!) {
  sendTestNotification(input: $input) { delivery { ${DELIVERY_FIELDS_TEXT} } userErrors { field code message } }
}`;

async function createTarget(user: SignedUpUser, name: string, url: string) {
  const { createNotificationTarget } = await graphqlData(testApp, user.token, CREATE_TARGET, {
    input: { name, url },
  });
  expect(createNotificationTarget.userErrors).toEqual([]);
  return { ...createNotificationTarget.notificationTarget, secret: createNotificationTarget.secret } as {
    id: string;
    legacyId: number;
    name: string;
    scheme: string;
    url: string;
    secret: string | null;
    createdAt: string;
    updatedAt: string | null;
  };
}

/** A page of the deliveries to a target, from the target's own connection. */
async function deliveriesOfTarget(user: SignedUpUser, id: string, first: number) {
  const { node } = await graphqlData(
    testApp,
    user.token,
    `query($id: ID!, $first: Int) { node(id: $id) { ... on NotificationTarget { deliveries(first: $first) { totalCount edges { node { ${DELIVERY_FIELDS_TEXT} } } } } } }`,
    { id, first },
  );
  return node.deliveries;
}

/** The body of a request the fake received, as JSON. */
const jsonOf = (request: ReceivedRequest) => JSON.parse(request.body) as Record<string, any>;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const host = () => new URL(base).host;
const PUSHOVER_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const PUSHOVER_APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
/** The sample the test message describes: the user's first record (MINIMAL: product 1, Netflix Standard, 15.49 USD). */
const SAMPLE = /Netflix Standard: 15\.49 USD is due on/;

interface SchemeCase {
  url: () => string;
  masked: () => string;
  /** Parts of the URL that no read may show. */
  secrets: string[];
  check: (request: ReceivedRequest, deliveryId: number) => void;
}

const SCHEMES: Record<string, SchemeCase> = {
  ntfy: {
    url: () => `ntfy://ann:s3cret-pass@${host()}/reminders-Topic7x`,
    // The topic is the secret on a public server: masked too.
    masked: () => `ntfy://ann:****@${host()}/****`,
    secrets: ['s3cret-pass', 'reminders-Topic7x'],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/']);
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        authorization: basic('ann', 's3cret-pass'),
      });
      expect(jsonOf(request)).toEqual({
        topic: 'reminders-Topic7x',
        title: 'Subledger: test notification',
        message: expect.stringMatching(SAMPLE),
        click: expect.any(String),
      });
    },
  },
  gotify: {
    // gotify://, not gotifys://: the fake speaks plain HTTP, and an `…s` scheme is sent over TLS only.
    url: () => `gotify://${host()}/gotify/AppTokenSecret1`,
    masked: () => `gotify://${host()}/gotify/****`,
    secrets: ['AppTokenSecret1'],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/gotify/message']);
      expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'x-gotify-key': 'AppTokenSecret1' });
      expect(jsonOf(request)).toMatchObject({
        title: 'Subledger: test notification',
        message: expect.stringMatching(SAMPLE),
        priority: 5,
      });
    },
  },
  tgram: {
    url: () => 'tgram://123456789:AAHsecretBotToken_x/-100987654',
    masked: () => 'tgram://123456789:****/-100987654',
    secrets: ['AAHsecretBotToken_x'],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/bot123456789:AAHsecretBotToken_x/sendMessage']);
      expect(request.headers['content-type']).toBe('application/json');
      expect(jsonOf(request)).toEqual({
        chat_id: '-100987654',
        text: expect.stringMatching(SAMPLE),
        disable_web_page_preview: true,
      });
    },
  },
  discord: {
    url: () => 'discord://112233445566/SecretWebhookToken-abc',
    masked: () => 'discord://112233445566/****',
    secrets: ['SecretWebhookToken-abc'],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/api/webhooks/112233445566/SecretWebhookToken-abc']);
      expect(jsonOf(request)).toEqual({ content: expect.stringMatching(SAMPLE) });
    },
  },
  pover: {
    url: () => `pover://${PUSHOVER_USER}@${PUSHOVER_APP}`,
    masked: () => 'pover://****@****',
    secrets: [PUSHOVER_USER, PUSHOVER_APP],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/1/messages.json']);
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const form = Object.fromEntries(new URLSearchParams(request.body));
      expect(form).toEqual({
        token: PUSHOVER_APP,
        user: PUSHOVER_USER,
        title: 'Subledger: test notification',
        message: expect.stringMatching(SAMPLE),
        url: expect.any(String),
      });
    },
  },
  slack: {
    url: () => 'https://hooks.slack.com/services/T00000000/B00000000/XXXXsecretXXXX',
    masked: () => 'slack://T00000000/B00000000/****',
    secrets: ['XXXXsecretXXXX'],
    check(request) {
      expect([request.method, request.url]).toEqual(['POST', '/services/T00000000/B00000000/XXXXsecretXXXX']);
      expect(jsonOf(request)).toEqual({ text: expect.stringMatching(SAMPLE) });
    },
  },
  matrix: {
    url: () => `matrix://bot:syt_secret_token@${host()}/!roomid:example.org`,
    masked: () => `matrix://bot:****@${host()}/!roomid:example.org`,
    secrets: ['syt_secret_token'],
    check(request, deliveryId) {
      expect([request.method, request.url]).toEqual([
        'PUT',
        `/_matrix/client/v3/rooms/!roomid%3Aexample.org/send/m.room.message/ntf_${deliveryId}`,
      ]);
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        authorization: 'Bearer syt_secret_token',
      });
      expect(jsonOf(request)).toEqual({ msgtype: 'm.text', body: expect.stringMatching(SAMPLE) });
    },
  },
  json: {
    url: () => `json://hook:pw-secret@${host()}/notify/HookIdSecret9?key=abc`,
    // Such services put their secret in the path or the query: both masked whole.
    masked: () => `json://hook:****@${host()}/****`,
    secrets: ['pw-secret', 'HookIdSecret9', 'key=abc'],
    check(request, deliveryId) {
      expect([request.method, request.url]).toEqual(['POST', '/notify/HookIdSecret9?key=abc']);
      expect(request.headers).toMatchObject({
        'content-type': 'application/json',
        authorization: basic('hook', 'pw-secret'),
        'webhook-id': `ntf_${deliveryId}`,
      });
      expect(jsonOf(request)).toEqual({
        id: `ntf_${deliveryId}`,
        type: 'test',
        title: 'Subledger: test notification',
        body: expect.stringMatching(SAMPLE),
        link: expect.stringMatching(/^https:\/\/subledger\.example\.com\/#\/subscriptions\/\d+$/),
        reminder: {
          kind: 'payment',
          date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          days_ahead: expect.any(Number),
        },
        subscription: { id: expect.any(Number), product_name: 'Netflix Standard', price: '15.49', currency: 'USD' },
      });
    },
  },
};

describe.each(Object.entries(SCHEMES))('%s targets', (scheme, target) => {
  it('send the request the service expects, retry after a 5xx, and never show the secrets again', async () => {
    const user = await signUp(testApp, `Scheme ${scheme}`);
    await createSubscription(testApp, user.token, { price: '15.49', price_type: 'USD' });
    const created = await createTarget(user, `My ${scheme}`, target.url());
    expect(created).toEqual({
      id: toGlobalId('NotificationTarget', created.legacyId),
      legacyId: expect.any(Number),
      name: `My ${scheme}`,
      scheme: scheme.toUpperCase(),
      url: target.masked(),
      secret: scheme === 'json' ? expect.stringMatching(/^whsec_/) : null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    fake.script = [503];
    const {
      sendTestNotification: { delivery: first },
    } = await graphqlData(testApp, user.token, SEND_TEST, { input: { id: created.id } });
    expect(first).toEqual({
      id: toGlobalId('WebhookDelivery', first.legacyId),
      legacyId: expect.any(Number),
      topic: 'NOTIFICATION_TEST',
      endpointId: null,
      targetId: created.id,
      status: 'PENDING',
      attemptCount: 1,
      attempts: [{ attemptNumber: 1, statusCode: 503, responseExcerpt: 'received', error: null }],
    });
    const [request] = await fake.waitFor(1);
    target.check(request, first.legacyId);
    if (scheme === 'json') {
      const timestamp = Number(request.headers['webhook-timestamp']);
      expect(request.headers['webhook-signature']).toBe(
        signWebhook(created.secret!, `ntf_${first.legacyId}`, timestamp, request.body),
      );
    }

    // The retry, when the schedule says: the same request again, and the delivery done.
    await sql(testApp, `update "webhook_deliveries" set "next_attempt_at" = now() at time zone 'utc' where "id" = ?`, [
      first.legacyId,
    ]);
    testApp.app.services.outbox.notify();
    const [, retried] = await fake.waitFor(2);
    expect(retried.body).toBe(request.body);
    expect([retried.method, retried.url]).toEqual([request.method, request.url]);
    const log = async () => (await deliveriesOfTarget(user, created.id, 5)).edges;
    await until(async () => (await log())[0].node.status === 'SUCCEEDED', 'the retried delivery to succeed');

    const reads = [
      JSON.stringify(await log()),
      JSON.stringify(await graphqlData(testApp, user.token, `{ notificationTargets { ${TARGET_FIELDS} } }`)),
      JSON.stringify(
        await graphqlData(
          testApp,
          user.token,
          `mutation { updateNotificationTarget(input: {id: "${created.id}", name: "Renamed"}) { notificationTarget { ${TARGET_FIELDS} } } }`,
        ),
      ),
    ];
    expect(reads[1]).toContain(JSON.stringify(target.masked()));
    const [stored] = await sql<{ sealed_url: string }>(
      testApp,
      `select "sealed_url" from "notification_targets" where "id" = ?`,
      [created.legacyId],
    );
    for (const secret of target.secrets) {
      for (const read of [...reads, stored.sealed_url]) expect(read).not.toContain(secret);
    }
  });
});

describe('masked forms', () => {
  // Each scheme's forms: the masked URL a read shows, and the parts of the URL that no read may show. What is
  // left (scheme as written, host, port, a path prefix, ids that are no credential) lets a person tell targets apart.
  const FORMS: [url: string, masked: string, secrets: string[]][] = [
    ['ntfy://ntfy.example.com/BillsTopicX1', 'ntfy://ntfy.example.com/****', ['BillsTopicX1']],
    [
      'ntfys://ann:PassWordX1@ntfy.example.com/BillsTopicX1',
      'ntfys://ann:****@ntfy.example.com/****',
      ['PassWordX1', 'BillsTopicX1'],
    ],
    [
      'ntfys://tk_AccessTokenX1@ntfy.example.com:8443/sub/BillsTopicX1',
      'ntfys://****@ntfy.example.com:8443/sub/****',
      ['tk_AccessTokenX1', 'BillsTopicX1'],
    ],
    ['gotify://gotify.example.com/AppTokenX1', 'gotify://gotify.example.com/****', ['AppTokenX1']],
    ['gotifys://gotify.example.com/gotify/AppTokenX1', 'gotifys://gotify.example.com/gotify/****', ['AppTokenX1']],
    ['tgram://123456789:AAHsecretBotTokenX1/-100987654', 'tgram://123456789:****/-100987654', ['AAHsecretBotTokenX1']],
    ['tgram://123456789:AAHsecretBotTokenX1/@mychannel', 'tgram://123456789:****/@mychannel', ['AAHsecretBotTokenX1']],
    ['discord://112233445566/DiscordTokenX1', 'discord://112233445566/****', ['DiscordTokenX1']],
    [`pover://${PUSHOVER_USER}@${PUSHOVER_APP}`, 'pover://****@****', [PUSHOVER_USER, PUSHOVER_APP]],
    ['slack://T00000000/B00000000/SlackSecretX1', 'slack://T00000000/B00000000/****', ['SlackSecretX1']],
    [
      'https://hooks.slack.com/services/T00000000/B00000000/SlackSecretX1',
      'slack://T00000000/B00000000/****',
      ['SlackSecretX1'],
    ],
    [
      'matrix://bot:syt_MatrixTokenX1@matrix.example.org/!room:example.org',
      'matrix://bot:****@matrix.example.org/!room:example.org',
      ['syt_MatrixTokenX1'],
    ],
    [
      'matrixs://syt_MatrixTokenX1@matrix.example.org/!room:example.org',
      'matrixs://****@matrix.example.org/!room:example.org',
      ['syt_MatrixTokenX1'],
    ],
    ['mailto://ann@example.com,bob@example.com', 'mailto://ann@example.com,bob@example.com', []],
    ['json://hooks.example.com/', 'json://hooks.example.com/', []],
    ['json://hooks.example.com/api/webhooks/HookIdX1', 'json://hooks.example.com/****', ['HookIdX1', 'api/webhooks']],
    ['jsons://hooks.example.com/?token=QueryTokenX1', 'jsons://hooks.example.com/****', ['QueryTokenX1', 'token=']],
    [
      'jsons://hook:PassWordX1@hooks.example.com/in/HookIdX1?key=QueryTokenX1',
      'jsons://hook:****@hooks.example.com/****',
      ['PassWordX1', 'HookIdX1', 'QueryTokenX1'],
    ],
    // A user without a password is a token (Basic auth with an empty password).
    ['jsons://TokenUserX1@hooks.example.com/hook', 'jsons://****@hooks.example.com/****', ['TokenUserX1']],
  ];

  it('show every scheme with its secrets, the ntfy topic and the json path and query, as ****', async () => {
    const user = await signUp(testApp, 'Masked forms');
    const created = [];
    for (const [url] of FORMS) created.push(await createTarget(user, 'Masked', url));
    const { notificationTargets } = await graphqlData(
      testApp,
      user.token,
      `{ notificationTargets { ${TARGET_FIELDS} } }`,
    );
    const renamed = [];
    for (const target of created) {
      const { updateNotificationTarget } = await graphqlData(
        testApp,
        user.token,
        `mutation { updateNotificationTarget(input: {id: "${target.id}", name: "Renamed"}) { notificationTarget { ${TARGET_FIELDS} } } }`,
      );
      renamed.push(updateNotificationTarget.notificationTarget);
    }
    const maskedForms = FORMS.map(([, masked]) => masked);
    expect(created.map((target) => target.url)).toEqual(maskedForms);
    expect(notificationTargets.map((target: { url: string }) => target.url)).toEqual(maskedForms);
    expect(renamed.map((target) => target.url)).toEqual(maskedForms);
    const reads = JSON.stringify([created, notificationTargets, renamed]);
    for (const secret of FORMS.flatMap(([, , secrets]) => secrets))
      expect([secret, reads.includes(secret)]).toEqual([secret, false]);
  });

  it('are rewritten by the migration for targets saved with the older masked forms', async () => {
    // Each URL's masked form as it was stored before (the topic, the path and a token user shown).
    const OLDER: Record<string, string> = {
      'ntfy://ntfy.example.com/BillsTopicX1': 'ntfy://ntfy.example.com/BillsTopicX1',
      'ntfys://ann:PassWordX1@ntfy.example.com/BillsTopicX1': 'ntfys://ann:****@ntfy.example.com/BillsTopicX1',
      'ntfys://tk_AccessTokenX1@ntfy.example.com:8443/sub/BillsTopicX1':
        'ntfys://****@ntfy.example.com:8443/sub/BillsTopicX1',
      'gotifys://gotify.example.com/gotify/AppTokenX1': 'gotifys://gotify.example.com/gotify/****',
      'matrixs://syt_MatrixTokenX1@matrix.example.org/!room:example.org':
        'matrixs://****@matrix.example.org/!room:example.org',
      'json://hooks.example.com/': 'json://hooks.example.com/',
      'json://hooks.example.com/api/webhooks/HookIdX1': 'json://hooks.example.com/api/webhooks/HookIdX1',
      'jsons://hooks.example.com/?token=QueryTokenX1': 'jsons://hooks.example.com/?…',
      'jsons://hook:PassWordX1@hooks.example.com/in/HookIdX1?key=QueryTokenX1':
        'jsons://hook:****@hooks.example.com/in/HookIdX1?…',
      'jsons://TokenUserX1@hooks.example.com/hook': 'jsons://TokenUserX1@hooks.example.com/hook',
    };
    const database = await provisionDatabase();
    try {
      const before = await startTestApp(appEnv(), {}, database);
      const user = await signUp(before, 'Older masks');
      for (const [url, older] of Object.entries(OLDER)) {
        const { createNotificationTarget } = await graphqlData(before, user.token, CREATE_TARGET, {
          input: { name: 'Older', url },
        });
        await sql(before, `update "notification_targets" set "masked_url" = ? where "id" = ?`, [
          older,
          createNotificationTarget.notificationTarget.legacyId,
        ]);
      }
      await sql(
        before,
        `delete from "mikro_orm_migrations" where "name" = 'Migration20261126120000_mask_notification_secrets'`,
      );
      await before.close();

      const after = await startTestApp(appEnv(), {}, database);
      try {
        const { notificationTargets } = await graphqlData(after, user.token, '{ notificationTargets { url } }');
        const now = Object.fromEntries(FORMS.map(([url, masked]) => [url, masked]));
        expect(notificationTargets.map((target: { url: string }) => target.url)).toEqual(
          Object.keys(OLDER).map((url) => now[url]),
        );
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('…s schemes', () => {
  it('are sent over TLS only: a plain-HTTP listener receives no request and the attempt fails, naming TLS', async () => {
    const user = await signUp(testApp, 'TLS only');
    const targets = [
      [`ntfys://ann:PlainPassX1@${host()}/PlainTopicX1`, `ntfys://ann:****@${host()}/****`],
      [`gotifys://${host()}/gotify/PlainTokenX1`, `gotifys://${host()}/gotify/****`],
      [
        `matrixs://bot:syt_PlainTokenX2@${host()}/!plainroom:example.org`,
        `matrixs://bot:****@${host()}/!plainroom:example.org`,
      ],
      [`jsons://hook:PlainPassX2@${host()}/PlainHookX1`, `jsons://hook:****@${host()}/****`],
    ];
    for (const [url, masked] of targets) {
      const target = await createTarget(user, 'Secure', url);
      expect(target.url).toBe(masked);
      const {
        sendTestNotification: { delivery: sendTestNotification },
      } = await graphqlData(testApp, user.token, SEND_TEST, { input: { id: target.id } });
      expect([url, sendTestNotification.status, sendTestNotification.attempts]).toEqual([
        url,
        'PENDING',
        [
          {
            attemptNumber: 1,
            statusCode: null,
            responseExcerpt: null,
            error: `TLS handshake with ${host()} failed: it does not answer in TLS (plain HTTP?), and https is required`,
          },
        ],
      ]);
    }
    // The attempts are over (each answer came after its attempt): nothing of these targets reached the listener.
    const arrived = JSON.stringify(fake.received);
    for (const secret of [
      'PlainPassX1',
      'PlainTopicX1',
      'PlainTokenX1',
      'syt_PlainTokenX2',
      'plainroom',
      'PlainPassX2',
      'PlainHookX1',
    ]) {
      expect([secret, arrived.includes(secret)]).toEqual([secret, false]);
    }
    expect(fake.received).toEqual([]);
  });
});

describe('reminders', () => {
  /** A webhook endpoint taking the payment reminders. */
  async function createEndpoint(user: SignedUpUser): Promise<void> {
    const { createWebhookEndpoint } = await graphqlData(
      testApp,
      user.token,
      `mutation { createWebhookEndpoint(input: {url: "${fake.url}", events: [SUBSCRIPTION_PAYMENT_DUE]}) { webhookEndpoint { events } userErrors { code } } }`,
    );
    expect(createWebhookEndpoint).toEqual({
      webhookEndpoint: { events: ['SUBSCRIPTION_PAYMENT_DUE'] },
      userErrors: [],
    });
  }
  async function alert(user: SignedUpUser, channel: string): Promise<{ id: string; legacyId: number }> {
    const { createAlert } = await graphqlData(
      testApp,
      user.token,
      `mutation { createAlert(input: {name: "Two days before", timePeriod: 2, time: "09:00", timezone: "UTC", channel: ${channel}, condition: BEFORE_DUE_DATE, subjects: SUBSCRIPTION}) { alert { id legacyId } } }`,
    );
    return createAlert.alert;
  }
  const deliveriesOf = (user: SignedUpUser) =>
    sql<{ endpoint_id: number | null; target_id: number | null; status: string; topic: string }>(
      testApp,
      `select d."endpoint_id", d."target_id", d."status", e."topic" from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id"
        where e."user_id" = ? order by d."id"`,
      [user.id],
    );

  it('deliver once to each target of the alert, with the SENT mark, naming product, amount, date and days ahead', async () => {
    const user = await signUp(testApp, 'Two targets');
    await createEndpoint(user);
    const ntfy = await createTarget(user, 'Phone', `ntfy://${host()}/bills`);
    const discord = await createTarget(user, 'Chat', 'discord://1234/token-abc');
    await createTarget(user, 'Unused', 'slack://T1/B1/C1');
    const browserAlert = await alert(user, 'BROWSER');
    const { setAlertTargets } = await graphqlData(
      testApp,
      user.token,
      'mutation($input: SetAlertTargetsInput!) { setAlertTargets(input: $input) { notificationTargets { id name } userErrors { field } } }',
      { input: { alertId: browserAlert.id, targetIds: [discord.id, ntfy.id, ntfy.id] } },
    );
    expect(setAlertTargets).toEqual({
      notificationTargets: [
        { id: ntfy.id, name: 'Phone' },
        { id: discord.id, name: 'Chat' },
      ],
      userErrors: [],
    });
    const { alertTargets } = await graphqlData(
      testApp,
      user.token,
      'query($alertId: ID!) { alertTargets(alertId: $alertId) { id legacyId scheme } }',
      { alertId: browserAlert.id },
    );
    expect(alertTargets).toEqual([
      { id: ntfy.id, legacyId: ntfy.legacyId, scheme: 'NTFY' },
      { id: discord.id, legacyId: discord.legacyId, scheme: 'DISCORD' },
    ]);
    const record = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-26',
      alert_id: String(browserAlert.legacyId),
      price: '12.34',
      price_type: 'EUR',
    });

    now = new Date('2026-03-24T09:00:00Z');
    testApp.app.reminderRelay.nudge();
    const requests = await fake.waitFor(2);
    await until(
      async () => (await deliveriesOf(user)).every((delivery) => delivery.status === 'SUCCEEDED'),
      'the deliveries',
    );
    // Browser alerts send no webhook: the endpoint gets nothing, each target one delivery.
    expect(await deliveriesOf(user)).toEqual([
      { endpoint_id: null, target_id: ntfy.legacyId, status: 'SUCCEEDED', topic: 'subscription.payment_due' },
      { endpoint_id: null, target_id: discord.legacyId, status: 'SUCCEEDED', topic: 'subscription.payment_due' },
    ]);
    const text = `Netflix Standard: 12.34 EUR is due on March 26, 2026 (in 2 days).`;
    const link = `https://subledger.example.com/#/subscriptions/${record.id}`;
    const byPath = Object.fromEntries(requests.map((request) => [request.url, jsonOf(request)]));
    expect(byPath['/']).toEqual({
      topic: 'bills',
      title: 'Subledger reminder: Netflix Standard',
      message: text,
      click: link,
    });
    expect(byPath['/api/webhooks/1234/token-abc']).toEqual({
      content: `Subledger reminder: Netflix Standard\n${text}\n${link}`,
    });
    expect(fake.received).toHaveLength(2);
  });

  it('alert_type 1 (All) sends to every target of the user, and the webhook too; dates read as in the user’s country', async () => {
    const user = await signUp(testApp, 'All targets');
    await sql(testApp, `update "users" set "country" = 'DE' where "id" = ?`, [user.id]);
    await createEndpoint(user);
    const gotify = await createTarget(user, 'Gotify', `gotify://${host()}/tokenA`);
    const json = await createTarget(user, 'Hook', `json://${host()}/notify`);
    const allAlert = await alert(user, 'ALL');
    await createSubscription(testApp, user.token, {
      payment_date: '2026-03-26',
      alert_id: String(allAlert.legacyId),
    });
    now = new Date('2026-03-24T09:00:00Z');
    testApp.app.reminderRelay.nudge();
    await fake.waitFor(3);
    await until(
      async () => (await deliveriesOf(user)).every((delivery) => delivery.status === 'SUCCEEDED'),
      'the deliveries',
    );
    const deliveries = await deliveriesOf(user);
    expect(deliveries.map((delivery) => delivery.target_id ?? 'endpoint').sort()).toEqual(
      [gotify.legacyId, json.legacyId, 'endpoint'].sort(),
    );
    const gotifyRequest = fake.received.find((request) => request.url === '/message')!;
    expect(jsonOf(gotifyRequest).message).toContain('is due on 26 March 2026 (in 2 days)');
  });
});

describe('mailto targets', () => {
  it('mail every address through SMTP_URL, retry after a refusal, and record the server’s reply', async () => {
    const user = await signUp(testApp, 'Mail target');
    const target = await createTarget(user, 'Family', 'mailto://ann@example.com,bob@example.com');
    expect(target.url).toBe('mailto://ann@example.com,bob@example.com');
    mails.length = 0;
    // Once, and only this target's mail: reminders of other tests may be mailed meanwhile.
    let refusals = 1;
    smtp.refuse = (recipients) => recipients.includes('ann@example.com') && refusals-- > 0;
    const {
      sendTestNotification: { delivery: sendTestNotification },
    } = await graphqlData(testApp, user.token, SEND_TEST, { input: { id: target.id } });
    expect(sendTestNotification).toMatchObject({
      status: 'PENDING',
      attempts: [
        { attemptNumber: 1, statusCode: null, responseExcerpt: null, error: expect.stringMatching(/451 Mailbox busy/) },
      ],
    });
    // The retry, when the schedule says.
    await sql(testApp, `update "webhook_deliveries" set "next_attempt_at" = now() at time zone 'utc' where "id" = ?`, [
      sendTestNotification.legacyId,
    ]);
    testApp.app.services.outbox.notify();
    const log = async () => (await deliveriesOfTarget(user, target.id, 1)).edges[0].node;
    await until(async () => (await log()).status === 'SUCCEEDED', 'the retried e-mail');
    expect((await log()).attempts[1]).toEqual({
      attemptNumber: 2,
      statusCode: null,
      responseExcerpt: expect.stringMatching(/^250/),
      error: null,
    });
    // Only this target's mail (reminders of other tests may be mailed to their users meanwhile).
    const sent = mails.filter((mail) => /^To: ann@example\.com, bob@example\.com/m.test(mail));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^Subject: Subledger: test notification/m);
  });
});

describe('refusals', () => {
  it('refuse bad URLs with a field error naming the scheme’s form, and another user’s targets as missing', async () => {
    const user = await signUp(testApp, 'Refusals');
    for (const [url, message] of [
      ['ftp://example.com/x', /scheme must be one of/],
      ['tgram://not-a-token/123', /bot token/],
      ['tgram://123:abc/1/2', /one chat/],
      ['discord://abc/def', /discord:\/\/webhook_id\/webhook_token/],
      ['pover://short@short', /30 letters/],
      ['slack://a/b', /tokenA\/tokenB\/tokenC/],
      ['matrix://token@matrix.example.com/#alias:example.org', /room id/],
      ['mailto://not-an-address', /mailto:\/\/someone@example\.com/],
      ['ntfy://ntfy.example.com/', /names its topic/],
    ] as const) {
      const response = await graphql(testApp, user.token, CREATE_TARGET, {
        input: { name: 'Bad', url },
      });
      expect([url, response.body.data.createNotificationTarget.userErrors]).toEqual([
        url,
        [{ field: ['input', 'url'], code: 'BAD_USER_INPUT', message: expect.stringMatching(message) }],
      ]);
      expect([url, response.body.errors[0].extensions.code]).toEqual([url, 'BAD_USER_INPUT']);
      expect(response.body.errors[0].extensions.errors.url[0]).toMatch(message);
    }
    expect((await graphqlData(testApp, user.token, '{ notificationTargets { id } }')).notificationTargets).toEqual([]);

    const other = await signUp(testApp, 'Other');
    const theirs = await createTarget(other, 'Theirs', 'discord://99/their-token');
    for (const [name, document] of [
      [
        'sendTestNotification',
        `mutation { sendTestNotification(input: {id: "${theirs.id}"}) { delivery { id } userErrors { field code } } }`,
      ],
      [
        'deleteNotificationTarget',
        `mutation { deleteNotificationTarget(input: {id: "${theirs.id}"}) { deletedNotificationTargetId userErrors { field code } } }`,
      ],
      [
        'updateNotificationTarget',
        `mutation { updateNotificationTarget(input: {id: "${theirs.id}", name: "mine"}) { notificationTarget { id } userErrors { field code } } }`,
      ],
    ]) {
      const answer = await graphql(testApp, user.token, document);
      expect(answer.body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect([name, answer.body.data[name].userErrors]).toEqual([name, [{ field: [], code: 'NOT_FOUND' }]]);
    }
    expect((await graphqlData(testApp, user.token, `{ node(id: "${theirs.id}") { id } }`)).node).toBeNull();
    const linked = await graphql(
      testApp,
      user.token,
      'mutation($input: SetAlertTargetsInput!) { setAlertTargets(input: $input) { notificationTargets { id } userErrors { field code message } } }',
      { input: { alertId: toGlobalId('Alert', 1), targetIds: [theirs.id] } },
    );
    expect(linked.body.errors[0].extensions.errors).toEqual({ target_ids: ['The selected target_ids do not exist.'] });
    expect(linked.body.data.setAlertTargets).toEqual({
      notificationTargets: null,
      userErrors: [
        { field: ['input', 'targetIds'], code: 'BAD_USER_INPUT', message: 'The selected target_ids do not exist.' },
      ],
    });
    expect(await sql(testApp, `select * from "alert_targets" where "target_id" = ?`, [theirs.legacyId])).toEqual([]);
  });

  it('keep private addresses out unless WEBHOOK_ALLOW_PRIVATE, and need NOTIFY_SECRET_KEY to make targets and to start once there are any', async () => {
    const database = await provisionDatabase();
    try {
      const strict = await startTestApp({ ...appEnv(), WEBHOOK_ALLOW_PRIVATE: 'false' }, {}, database);
      const user = await signUp(strict, 'Strict');
      const make = (url: string) => graphql(strict, user.token, CREATE_TARGET, { input: { name: 'x', url } });
      expect((await make('ntfy://127.0.0.1/alerts')).body.errors[0].extensions.errors.url[0]).toMatch(
        /loopback, private/,
      );
      expect((await make('gotify://localhost/token')).body.errors[0].extensions.errors.url[0]).toMatch(/this machine/);
      expect(
        (await make('ntfy://ntfy.example.com/alerts')).body.data.createNotificationTarget.notificationTarget.id,
      ).toEqual(expect.any(String));
      await strict.close();

      const { NOTIFY_SECRET_KEY: _key, ...keyless } = appEnv();
      await expect(startTestApp(keyless, {}, database)).rejects.toThrow(
        /NOTIFY_SECRET_KEY must be set: notification targets exist/,
      );
      const keyed = await startTestApp(appEnv(), {}, database);
      await keyed.close();
    } finally {
      await database.drop();
    }
  });

  it('refuse to make a target without NOTIFY_SECRET_KEY, and a mailto target without SMTP_URL', async () => {
    const database = await provisionDatabase();
    try {
      const { NOTIFY_SECRET_KEY: _key, SMTP_URL: _smtp, ...bare } = appEnv();
      const app = await startTestApp(bare, {}, database);
      const user = await signUp(app, 'Keyless');
      const keyless = await graphql(
        app,
        user.token,
        'mutation { createNotificationTarget(input: {name: "x", url: "ntfy://ntfy.example.com/a"}) { notificationTarget { id } userErrors { field code } } }',
      );
      expect(keyless.body.data.createNotificationTarget).toEqual({
        notificationTarget: null,
        userErrors: [{ field: [], code: 'CONFLICT' }],
      });
      expect(keyless.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/NOTIFY_SECRET_KEY/),
        extensions: { code: 'CONFLICT' },
      });
      const mail = await graphql(
        app,
        user.token,
        'mutation { createNotificationTarget(input: {name: "x", url: "mailto://a@example.com"}) { notificationTarget { id } } }',
      );
      expect(mail.body.errors[0].extensions.errors.url[0]).toMatch(/SMTP_URL/);
      await app.close();
    } finally {
      await database.drop();
    }
  });
});

describe('a target in GraphQL', () => {
  it('pages its deliveries, newest first, forward (first/after) and back (last/before)', async () => {
    const user = await signUp(testApp, 'Pages');
    const target = await createTarget(user, 'Pager', `ntfy://${host()}/paged`);
    const sent: string[] = [];
    for (let test = 0; test < 3; test++) {
      const { sendTestNotification } = await graphqlData(testApp, user.token, SEND_TEST, { input: { id: target.id } });
      expect(sendTestNotification.userErrors).toEqual([]);
      sent.push(sendTestNotification.delivery.id);
    }
    const newestFirst = [...sent].reverse();
    const PAGE = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
      node(id: $id) {
        ... on NotificationTarget {
          deliveries(first: $first, after: $after, last: $last, before: $before) {
            totalCount
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { id topic } }
          }
        }
      }
    }`;
    const page = async (args: Record<string, unknown>) =>
      (await graphqlData(testApp, user.token, PAGE, { id: target.id, ...args })).node.deliveries;
    const idsOf = (answer: { edges: Array<{ node: { id: string } }> }) => answer.edges.map(({ node }) => node.id);

    const first = await page({ first: 2 });
    expect(first.totalCount).toBe(3);
    expect(idsOf(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.edges[0].node.topic).toBe('NOTIFICATION_TEST');
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const next = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(idsOf(next)).toEqual(newestFirst.slice(2));
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const last = await page({ last: 2 });
    expect([last.totalCount, idsOf(last)]).toEqual([3, newestFirst.slice(1)]);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await page({ last: 2, before: last.pageInfo.startCursor });
    expect(idsOf(before)).toEqual(newestFirst.slice(0, 1));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('is found by node(id:) for its owner, null for another user; ids of another type are refused', async () => {
    const user = await signUp(testApp, 'Node owner');
    const stranger = await signUp(testApp, 'Node stranger');
    const target = await createTarget(user, 'Found', 'slack://T1/B1/C1');
    const query = 'query($id: ID!) { node(id: $id) { __typename id ... on NotificationTarget { name scheme url } } }';
    expect((await graphqlData(testApp, user.token, query, { id: target.id })).node).toEqual({
      __typename: 'NotificationTarget',
      id: target.id,
      name: 'Found',
      scheme: 'SLACK',
      url: target.url,
    });
    expect((await graphqlData(testApp, stranger.token, query, { id: target.id })).node).toBeNull();
    const wrongType = await graphql(
      testApp,
      user.token,
      'mutation($input: DeleteNotificationTargetInput!) { deleteNotificationTarget(input: $input) { deletedNotificationTargetId userErrors { field code } } }',
      { input: { id: toGlobalId('Alert', target.legacyId) } },
    );
    expect(wrongType.body.data.deleteNotificationTarget).toEqual({
      deletedNotificationTargetId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND' }],
    });
    const { deleteNotificationTarget } = await graphqlData(
      testApp,
      user.token,
      'mutation($input: DeleteNotificationTargetInput!) { deleteNotificationTarget(input: $input) { deletedNotificationTargetId userErrors { field code } } }',
      { input: { id: target.id } },
    );
    expect(deleteNotificationTarget).toEqual({ deletedNotificationTargetId: target.id, userErrors: [] });
    expect((await graphqlData(testApp, user.token, query, { id: target.id })).node).toBeNull();
  });
});
