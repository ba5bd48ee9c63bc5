import Ajv2020 from 'ajv/dist/2020';

import { openApiDocument } from '../../rest-facade/openapi/document';
import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { FakeSmtp } from '../support/fake-smtp';
import { ownedRowsDigest } from '../support/hardening';
import { Receiver } from '../support/receiver';
import { createSubscription } from '../support/subscriptions';
import {
  deliveriesSettled,
  graphql,
  graphqlData,
  type SignedUpUser,
  signUp,
  sql,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import { until } from '../support/wait';

/**
 * Issue 20's budget warning: when next month's planned total exceeds a budget, the budget's alert definition
 * warns through its channels (webhook endpoints that list budget.exceeded, its notification targets, e-mail),
 * once per budget and month.
 */
let now = new Date('2026-03-10T12:00:00Z');
let testApp: TestApp;
const receiver = new Receiver();
const smtp = new FakeSmtp();

beforeAll(async () => {
  await receiver.start();
  await smtp.start();
  testApp = await startTestApp(
    {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NOTIFY_SECRET_KEY: 'budget-warnings-test-secret-key-0123456789',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SMTP_FROM: 'Subledger <test@example.com>',
    },
    { clock: () => now },
  );
});
afterAll(async () => {
  await testApp.close();
  await receiver.stop();
  await smtp.stop();
});

const budgetWarning = new Ajv2020({ strict: false })
  .addSchema(openApiDocument(), 'openapi.json')
  .getSchema('openapi.json#/components/schemas/BudgetWarning')!;
const SET = `mutation($input: SetBudgetInput!) {
  setBudget(input: $input) { budget { id legacyId categoryId amount { amount currency } alertId warnedMonth } userErrors { field code message } }
}`;
const sweep = () => testApp.app.services.budgetWarnings.sweep();
const received = (path: string) =>
  receiver.received.filter((request) => new URL(request.url, 'http://x').pathname === path);

describe('budget warnings', () => {
  let ann: SignedUpUser;
  let alertId: string;
  let overall: { id: string; legacyId: number };
  let categoryId: number;

  beforeAll(async () => {
    ann = await signUp(testApp, 'Ann Budget');
    const record = await createSubscription(testApp, ann.token, { price: '60.00', payment_date: '2026-01-20' });
    const alert = (
      await graphqlData(
        testApp,
        ann.token,
        'mutation { createAlert(input: {name: "Budget", timePeriod: 1, time: "09:00", timezone: "UTC", channel: ALL, contact: "budget@example.com"}) { alert { id channel } userErrors { code } } }',
      )
    ).createAlert;
    expect(alert).toEqual({ alert: { id: expect.any(String), channel: 'ALL' }, userErrors: [] });
    alertId = alert.alert.id;
    const host = new URL(receiver.url).host;
    const target = await graphqlData(
      testApp,
      ann.token,
      'mutation($input: CreateNotificationTargetInput!) { createNotificationTarget(input: $input) { notificationTarget { id } userErrors { code } } }',
      {
        input: { name: 'Hook', url: `json://${host}/notify` },
      },
    );
    expect(target.createNotificationTarget.userErrors).toEqual([]);
    const endpoint = await graphqlData(
      testApp,
      ann.token,
      `mutation { createWebhookEndpoint(input: {url: "${receiver.url}", events: [BUDGET_EXCEEDED]}) { webhookEndpoint { events } userErrors { code } } }`,
    );
    expect(endpoint.createWebhookEndpoint).toEqual({
      webhookEndpoint: { events: ['BUDGET_EXCEEDED'] },
      userErrors: [],
    });
    // An endpoint that lists no topics takes the record topics only.
    const all = await graphqlData(
      testApp,
      ann.token,
      `mutation { createWebhookEndpoint(input: {url: "${receiver.url}/all"}) { webhookEndpoint { id } userErrors { code } } }`,
    );
    expect(all.createWebhookEndpoint.userErrors).toEqual([]);
    await deliveriesSettled(testApp);
    receiver.received.length = 0;
    overall = (await graphqlData(testApp, ann.token, SET, { input: { amount: '50.00', alertId } })).setBudget.budget;
    // April plans 60.00 in the record's category too: under this one.
    categoryId = Number(record.category_id);
    const category = toGlobalId('ProductCategory', categoryId);
    const set = (
      await graphqlData(testApp, ann.token, SET, { input: { amount: '70.00', categoryId: category, alertId } })
    ).setBudget;
    expect(set).toEqual({
      budget: {
        id: expect.any(String),
        legacyId: expect.any(Number),
        categoryId: category,
        amount: { amount: '70.00', currency: 'USD' },
        alertId,
        warnedMonth: null,
      },
      userErrors: [],
    });
  });

  it("warns once through every channel when next month's planned total exceeds the budget", async () => {
    // Two sweeps at once (two processes): one warns.
    expect((await Promise.all([sweep(), sweep()])).sort()).toEqual([0, 1]);
    expect(await sweep()).toBe(0);
    await deliveriesSettled(testApp);
    const facts = {
      budget_id: overall.legacyId,
      category_id: null,
      category_name: null,
      month: '2026-04',
      amount: '50.00',
      planned: '60.00',
      over_by: '10.00',
      currency: 'USD',
    };
    const [hook] = received('/hook');
    expect(received('/hook')).toHaveLength(1);
    expect(hook.headers['x-subledger-webhook-event']).toBe('budget.exceeded');
    expect(JSON.parse(hook.body)).toEqual(facts);
    expect(budgetWarning(JSON.parse(hook.body))).toBe(true);
    expect(received('/hook/all')).toEqual([]);
    const [target] = received('/notify');
    expect(JSON.parse(target.body)).toEqual({
      id: expect.stringMatching(/^ntf_\d+$/),
      type: 'budget',
      title: 'Subledger: 2026-04 is over budget',
      body: 'Your monthly budget is 50.00 USD; 2026-04 plans 60.00 USD, 10.00 over.',
      link: null,
      budget: facts,
    });
    await until(() => smtp.messages.length === 1, 'the e-mail');
    expect(smtp.messages[0]).toMatch(/^To: budget@example\.com/m);
    expect(smtp.messages[0]).toContain('2026-04 plans 60.00 USD, 10.00 over.');
    const events = await sql<{ subscription_id: number | null }>(
      testApp,
      `select "subscription_id" from "webhook_events" where "topic" = 'budget.exceeded'`,
    );
    expect(events).toEqual([{ subscription_id: null }]);
    const budgets = (await graphqlData(testApp, ann.token, '{ budgets { id warnedMonth } }')).budgets;
    expect(budgets).toEqual([
      { id: overall.id, warnedMonth: '2026-04' },
      { id: expect.any(String), warnedMonth: null },
    ]);
  });

  it('checks a budget at most hourly: a plan grown over it warns once the hour has passed', async () => {
    // April now plans 80.00 in the category, over its 70.00.
    await createSubscription(testApp, ann.token, {
      price: '20.00',
      payment_date: '2026-01-25',
      category_id: String(categoryId),
    });
    try {
      now = new Date('2026-03-10T12:30:00Z');
      expect(await sweep()).toBe(0);
      now = new Date('2026-03-10T13:01:00Z');
      expect(await sweep()).toBe(1);
    } finally {
      now = new Date('2026-03-10T12:00:00Z');
    }
    await deliveriesSettled(testApp);
    expect(JSON.parse(received('/hook')[1].body)).toMatchObject({
      category_id: categoryId,
      amount: '70.00',
      planned: '80.00',
      over_by: '10.00',
    });
  });

  it('warns again when the budget is set again, and for the next month when it comes', async () => {
    expect(
      (await graphqlData(testApp, ann.token, SET, { input: { amount: '55.00', alertId } })).setBudget.budget,
    ).toMatchObject({ warnedMonth: null, alertId });
    expect(await sweep()).toBe(1);
    now = new Date('2026-04-15T12:00:00Z');
    try {
      // May: the overall budget and the category's.
      expect(await sweep()).toBe(2);
      expect(await sweep()).toBe(0);
      await deliveriesSettled(testApp);
      expect(received('/hook').map((request) => JSON.parse(request.body).month)).toEqual([
        '2026-04',
        '2026-04',
        '2026-04',
        '2026-05',
        '2026-05',
      ]);
    } finally {
      now = new Date('2026-03-10T12:00:00Z');
    }
    // Without an alert definition a budget warns no one: the sweep does not even check it.
    await graphqlData(testApp, ann.token, SET, { input: { amount: '1.00' } });
    expect(await sweep()).toBe(0);
  });

  it("refuses another user's alert definition, changing nothing", async () => {
    const bob = await signUp(testApp, 'Bob Budget');
    const digest = await ownedRowsDigest(testApp, bob.id);
    const response = await graphql(testApp, bob.token, SET, { input: { amount: '10.00', alertId } });
    expect(response.body.data.setBudget).toEqual({
      budget: null,
      userErrors: [
        { field: ['input', 'alertId'], code: 'BAD_USER_INPUT', message: 'The selected alert_id does not exist.' },
      ],
    });
    expect(response.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { alert_id: ['The selected alert_id does not exist.'] },
    });
    expect(await ownedRowsDigest(testApp, bob.id)).toBe(digest);
  });
});
