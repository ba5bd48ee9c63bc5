import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { countOwnedRows, ownedRows } from '../support/hardening';
import { Receiver } from '../support/receiver';
import { runCli } from '../support/service-process';
import { generateStatement } from '../support/statement-generator';
import { writeStatement } from '../support/statement-writers';
import { createSubscription } from '../support/subscriptions';
import {
  deliveriesSettled,
  graphql,
  graphqlData,
  mutation,
  type SignedUpUser,
  signUp,
  sql,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';

/**
 * Issue 44's admin, over HTTP: the first account is the admin (once, even when two sign up at once), the
 * accounts it sees, disabling (tokens dead at once, login refused as a wrong password is), enabling, deleting
 * an account with every row of it after its e-mail is typed again, the last admin kept, the CLI's admin.
 */
let testApp: TestApp;
let receiver: Receiver;
let admin: SignedUpUser;
let bea: SignedUpUser;

const ACCOUNT = 'id legacyId email name createdAt lastSeenAt recordCount twoFactorEnabled disabled admin';
const ACCOUNTS = `{ accounts { totalCount nodes { ${ACCOUNT} } } }`;

/** A mutation of one input as `token`: its payload (results and userErrors). */
const mutate = (token: string, field: string, input: Record<string, unknown>, results: string) =>
  mutation(testApp, token, field, input, results);

async function accounts(token = admin.token): Promise<Array<Record<string, any>>> {
  return (await graphqlData(testApp, token, ACCOUNTS)).accounts.nodes;
}

const accountOf = async (user: SignedUpUser) => (await accounts()).find((node) => node.legacyId === user.id)!;
const restLogin = (email: string, password: string) =>
  testApp.http.post('/api/v1/auth/login').field('email', email).field('password', password);
const tokenAnswer = (token: string) => testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${token}`);

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  testApp = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    NOTIFY_SECRET_KEY: 'admin-accounts-test-secret-key-0123456789',
  });
  admin = await signUp(testApp, 'Ada Admin');
  bea = await signUp(testApp, 'Bea');
});

afterAll(async () => {
  await testApp.close();
  await receiver.stop();
});

describe('the first account', () => {
  it('is the admin and the second is not; the REST user shows role_id 1 and 2', async () => {
    const nodes = await accounts();
    expect(nodes.map((node) => [node.email, node.admin, node.disabled, node.recordCount])).toEqual([
      [admin.email, true, false, 0],
      [bea.email, false, false, 0],
    ]);
    expect(nodes.map((node) => node.twoFactorEnabled)).toEqual([false, false]);
    expect(nodes[0].name).toBe('Ada Admin');
    // Signing up signs in: the first token is the last sign-in.
    for (const node of nodes) expect(Date.parse(node.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(node.createdAt));
    expect((await tokenAnswer(admin.token)).body.role_id).toBe(1);
    expect((await tokenAnswer(bea.token)).body.role_id).toBe(2);
    const refused = await graphql(testApp, bea.token, ACCOUNTS);
    expect(refused.body.errors.map((error: any) => error.extensions.code)).toEqual(['FORBIDDEN']);
    expect(refused.body.data).toBeNull();
    // Each account's own `me` says whether the admin's screens are its to open.
    expect((await graphqlData(testApp, admin.token, '{ me { admin } }')).me.admin).toBe(true);
    expect((await graphqlData(testApp, bea.token, '{ me { admin } }')).me.admin).toBe(false);
  });

  it('is one admin when several accounts are the first at once', async () => {
    const fresh = await startTestApp();
    try {
      const users = await Promise.all(Array.from({ length: 32 }, (_, index) => signUp(fresh, `First ${index}`)));
      const admins = await sql<{ id: number }>(fresh, `select "id" from "users" where "role_id" = 1`);
      expect(admins).toHaveLength(1);
      expect(users.map((user) => user.id)).toContain(admins[0].id);
    } finally {
      await fresh.close();
    }
  });
});

describe('the accounts an admin sees', () => {
  it('counts records (deleted ones aside) and moves last seen with a sign-in', async () => {
    const made = await Promise.all([1, 2, 3].map(() => createSubscription(testApp, bea.token)));
    const deleted = await testApp.http
      .delete(`/api/v1/subscriptions/${String(made[0].id)}`)
      .set('authorization', `Bearer ${bea.token}`);
    expect(deleted.status).toBe(200);
    const before = await accountOf(bea);
    expect(before.recordCount).toBe(2);
    const login = await restLogin(bea.email, bea.password);
    expect(login.status).toBe(201);
    const after = await accountOf(bea);
    expect(Date.parse(after.lastSeenAt)).toBeGreaterThan(Date.parse(before.lastSeenAt));
    const page = await graphqlData(
      testApp,
      admin.token,
      '{ accounts(first: 1) { totalCount pageInfo { hasNextPage } nodes { email } } }',
    );
    expect(page.accounts).toEqual({ totalCount: 2, pageInfo: { hasNextPage: true }, nodes: [{ email: admin.email }] });
  });
});

describe('the second factor an admin sees', () => {
  it('is on for an account whose enrolment was confirmed, not for a pending one', async () => {
    // The rows an enrolment leaves (two-factor.test.ts drives the enrolment itself): pending, then confirmed.
    await sql(testApp, `insert into "two_factor" ("user_id", "sealed_secret") values (?, 'v1.sealed')`, [bea.id]);
    expect((await accountOf(bea)).twoFactorEnabled).toBe(false);
    await sql(testApp, `update "two_factor" set "enabled_at" = now() where "user_id" = ?`, [bea.id]);
    expect((await accountOf(bea)).twoFactorEnabled).toBe(true);
    expect((await accountOf(admin)).twoFactorEnabled).toBe(false);
    await sql(testApp, `delete from "two_factor" where "user_id" = ?`, [bea.id]);
  });
});

describe('disabling and enabling', () => {
  it('kills every token at once and refuses login as a wrong password is; enabling lets it sign in again', async () => {
    const carl = await signUp(testApp, 'Carl');
    const second = (await restLogin(carl.email, carl.password)).body.token as string;
    expect((await tokenAnswer(second)).status).toBe(200);
    const id = (await accountOf(carl)).id;

    const disabled = await mutate(admin.token, 'disableAccount', { id }, `account { ${ACCOUNT} }`);
    expect(disabled.userErrors).toEqual([]);
    expect(disabled.account).toMatchObject({ id, email: carl.email, disabled: true, admin: false });
    for (const token of [carl.token, second]) expect((await tokenAnswer(token)).status).toBe(401);
    const me = await graphql(testApp, carl.token, '{ me { id } }');
    expect(me.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const [{ live }] = await sql<{ live: string }>(
      testApp,
      `select count(*) as "live" from "access_tokens" where "user_id" = ? and "revoked_at" is null`,
      [carl.id],
    );
    expect(Number(live)).toBe(0);

    // The right password of a disabled account gets what a wrong one gets: nothing tells them apart.
    const rightPassword = await restLogin(carl.email, carl.password);
    const wrongPassword = await restLogin(carl.email, 'not the password at all');
    expect([rightPassword.status, rightPassword.body]).toEqual([401, wrongPassword.body]);
    const graphqlLogin = await graphql(
      testApp,
      null,
      'mutation($input: LoginInput!) { login(input: $input) { token userErrors { code } } }',
      { input: { email: carl.email, password: carl.password } },
    );
    expect(graphqlLogin.body.errors.map((error: any) => [error.extensions.code, error.message])).toEqual([
      ['UNAUTHENTICATED', 'Invalid credentials'],
    ]);

    const again = await mutate(admin.token, 'disableAccount', { id }, 'account { id }');
    expect([again.account, again.userErrors.map((error: any) => error.code)]).toEqual([null, ['CONFLICT']]);

    const enabled = await mutate(admin.token, 'enableAccount', { id }, `account { ${ACCOUNT} }`);
    expect(enabled.account).toMatchObject({ id, disabled: false });
    const back = await restLogin(carl.email, carl.password);
    expect(back.status).toBe(201);
    expect((await tokenAnswer(back.body.token)).status).toBe(200);
    // Enabling does not bring the revoked tokens back.
    expect((await tokenAnswer(carl.token)).status).toBe(401);
  });

  it('is refused to anyone but an admin, changing nothing', async () => {
    const id = (await accountOf(admin)).id;
    const [{ n }] = await sql<{ n: string }>(testApp, `select count(*) as "n" from "audit_log"`);
    for (const field of ['disableAccount', 'enableAccount']) {
      const payload = await mutate(bea.token, field, { id }, 'account { id }');
      expect([field, payload.account, payload.userErrors.map((error: any) => error.code)]).toEqual([
        field,
        null,
        ['FORBIDDEN'],
      ]);
    }
    const deletion = await mutate(bea.token, 'deleteAccount', { id, confirmEmail: admin.email }, 'deletedAccountId');
    expect(deletion.userErrors.map((error: any) => error.code)).toEqual(['FORBIDDEN']);
    expect((await tokenAnswer(admin.token)).status).toBe(200);
    expect((await sql<{ n: string }>(testApp, `select count(*) as "n" from "audit_log"`))[0].n).toBe(n);
  });
});

/** The tables the seeded account has rows in: every one of OWNED_ROWS but the statement layouts (a CSV mapping). */
const SEEDED_TABLES = [
  'users',
  'access_tokens',
  'alerts',
  'extension_settings',
  'folders',
  'tags',
  'payment_modes',
  'product_categories',
  'products',
  'subscriptions',
  'subscription_tags',
  'subscription_alerts',
  'reminders',
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'inbound_webhook_tokens',
  'inbound_idempotency_keys',
  'calendar_feeds',
  'notification_targets',
  'alert_targets',
  'price_changes',
  'payment_entries',
  'budgets',
  'households',
  'household_members',
  'subscription_shares',
  'subscription_splits',
  'statement_proposals',
];

/** Gives `user` rows in every table of SEEDED_TABLES (and a household `joiner` joined). */
async function seedEverything(user: SignedUpUser, joiner: SignedUpUser): Promise<void> {
  const as = async (token: string, query: string, variables?: Record<string, unknown>) => {
    const data = await graphqlData(testApp, token, query, variables);
    for (const payload of Object.values(data))
      if (payload?.userErrors?.length) throw new Error(JSON.stringify(payload.userErrors));
    return data;
  };
  const q = (query: string, variables?: Record<string, unknown>) => as(user.token, query, variables);
  await q('mutation { updateExtensionSettings(input: {notifyBefore: 4}) { userErrors { code } } }');
  const folder = (await q('mutation { createFolder(input: {name: "f"}) { folder { legacyId } userErrors { code } } }'))
    .createFolder.folder.legacyId;
  const tag = (await q('mutation { createTag(input: {name: "t"}) { tag { legacyId } userErrors { code } } }')).createTag
    .tag.legacyId;
  const mode = (
    await q('mutation { createPaymentMode(input: {name: "card"}) { paymentMode { legacyId } userErrors { code } } }')
  ).createPaymentMode.paymentMode.legacyId;
  const category = (
    await q(
      'mutation { createProductCategory(input: {name: "c"}) { productCategory { id legacyId } userErrors { code } } }',
    )
  ).createProductCategory.productCategory;
  const alert = await testApp.http
    .post('/api/v1/alerts')
    .set('authorization', `Bearer ${user.token}`)
    .field('alert_name', 'a')
    .field('time_period', '2')
    .field('time', '09:00')
    .field('timezone', 'UTC')
    .field('alert_type', '1')
    .field('alert_condition', '1')
    .field('alert_subs_type', '1');
  expect(alert.status).toBe(200);
  await q(`mutation { createWebhookEndpoint(input: {url: "${receiver.url}/seed"}) { userErrors { code } } }`);
  const inbound = (
    await q('mutation { createInboundWebhookToken(input: {kind: MANAGE}) { token userErrors { code } } }')
  ).createInboundWebhookToken.token;
  await q('mutation { createCalendarFeed(input: {name: "feed"}) { userErrors { code } } }');
  const target = (
    await q(
      'mutation { createNotificationTarget(input: {name: "n", url: "ntfy://ntfy.example.com/seed"}) { notificationTarget { id } userErrors { code } } }',
    )
  ).createNotificationTarget.notificationTarget.id;
  const alerts = (await q('{ alerts { id legacyId isSystem } }')).alerts as Array<{
    id: string;
    legacyId: number;
    isSystem: boolean;
  }>;
  const alertId = alerts.find((candidate) => candidate.legacyId === alert.body.id)!.id;
  const systemAlertId = alerts.find((candidate) => candidate.isSystem)!.id;
  await q('mutation($input: SetAlertTargetsInput!) { setAlertTargets(input: $input) { userErrors { code } } }', {
    input: { alertId, targetIds: [target] },
  });
  const record = await createSubscription(testApp, user.token, {
    brand_id: 'own product',
    folder_id: String(folder),
    'tags[]': String(tag),
    payment_mode_id: String(mode),
    category_id: String(category.legacyId),
    alert_id: String(alert.body.id),
  });
  const recordGid = (await q('{ subscriptions { nodes { id legacyId } } }')).subscriptions.nodes.find(
    (node: any) => node.legacyId === record.id,
  ).id;
  await q(`mutation($input: ChangePriceInput!) { changePrice(input: $input) { userErrors { code message } } }`, {
    input: { id: recordGid, price: '19.99', effectiveFrom: daysFromToday(20) },
  });
  await q(
    'mutation($input: SetSubscriptionAlertsInput!) { setSubscriptionAlerts(input: $input) { userErrors { code } } }',
    { input: { id: recordGid, alertIds: [alertId, systemAlertId] } },
  );
  // A one-time add-on paid a month ago: an entry of the payment ledger.
  await q('mutation($input: AddAddonInput!) { addAddon(input: $input) { userErrors { code } } }', {
    input: {
      mainRecordId: recordGid,
      price: '5.00',
      currency: 'USD',
      paymentDate: daysFromToday(-30),
      status: 'ACTIVE',
      recurring: 'ONCE',
    },
  });
  const entry = (await q('{ paymentEntries(first: 1) { nodes { id } } }')).paymentEntries.nodes[0].id;
  await q('mutation($input: MarkPaidInput!) { markPaid(input: $input) { userErrors { code } } }', {
    input: { id: entry },
  });
  await q('mutation($input: SetBudgetInput!) { setBudget(input: $input) { userErrors { code } } }', {
    input: { amount: '50', categoryId: category.id },
  });
  const inboundWrite = await testApp.http
    .post(`/webhook/user/data/${encodeURIComponent(inbound)}`)
    .set('content-type', 'application/json')
    .set('idempotency-key', 'seed-1')
    .set('x-subledger-webhook-topic', 'subscription.updated')
    .send({ id: String(record.id), note: 'inbound' });
  expect(inboundWrite.status).toBe(200);
  const statement = generateStatement(1, { from: monthsFromToday(-24), months: 24, currency: 'EUR' });
  const analysis = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${user.token}`)
    .field(
      'operations',
      JSON.stringify({
        query: 'mutation ($input: AnalyzeStatementInput!) { analyzeStatement(input: $input) { userErrors { code } } }',
        variables: { input: { file: null } },
      }),
    )
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', writeStatement(statement.transactions, 'csv', 'english'), 'statement.csv');
  expect(analysis.body.data.analyzeStatement.userErrors).toEqual([]);
  const household = await q(
    `mutation { createHousehold(input: {name: "home"}) { household { id } userErrors { code } } }`,
  );
  expect(household.createHousehold.household).not.toBeNull();
  const member = await q(
    `mutation($email: String!) { addHouseholdMember(input: {name: "joiner", email: $email}) { householdMember { id } invitationCode userErrors { code } } }`,
    { email: joiner.email },
  );
  await as(joiner.token, 'mutation($code: String!) { joinHousehold(input: {code: $code}) { userErrors { code } } }', {
    code: member.addHouseholdMember.invitationCode,
  });
  await q('mutation($input: ShareSubscriptionInput!) { shareSubscription(input: $input) { userErrors { code } } }', {
    input: {
      id: recordGid,
      payerMemberId: member.addHouseholdMember.householdMember.id,
      shares: [{ memberId: member.addHouseholdMember.householdMember.id }],
    },
  });
  await deliveriesSettled(testApp);
}

describe('deleting an account', () => {
  it('needs its e-mail typed again, then removes every row of it in one go; what it joined keeps its name', async () => {
    const dana = await signUp(testApp, 'Dana');
    const joiner = await signUp(testApp, 'Joiner');
    await seedEverything(dana, joiner);
    // Dana joined the admin's household too.
    const home = await graphqlData(
      testApp,
      admin.token,
      `mutation($email: String!) { createHousehold(input: {name: "admin home"}) { household { id } } addHouseholdMember(input: {name: "Dana", email: $email}) { invitationCode } }`,
      { email: dana.email },
    );
    await graphqlData(
      testApp,
      dana.token,
      'mutation($code: String!) { joinHousehold(input: {code: $code}) { household { id } } }',
      {
        code: home.addHouseholdMember.invitationCode,
      },
    );
    const before = await ownedRows(testApp, dana.id);
    expect(SEEDED_TABLES.filter((table) => before[table].length === 0)).toEqual([]);
    const id = (await accountOf(dana)).id;

    for (const confirmEmail of [joiner.email, '', `x${dana.email}`]) {
      const refused = await mutate(admin.token, 'deleteAccount', { id, confirmEmail }, 'deletedAccountId');
      expect(refused).toEqual({
        deletedAccountId: null,
        userErrors: [{ field: ['input', 'confirmEmail'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
      });
    }
    expect(await ownedRows(testApp, dana.id)).toEqual(before);
    expect((await tokenAnswer(dana.token)).status).toBe(200);

    const deleted = await mutate(
      admin.token,
      'deleteAccount',
      { id, confirmEmail: ` ${dana.email.toUpperCase()} ` },
      'deletedAccountId',
    );
    expect(deleted).toEqual({ deletedAccountId: id, userErrors: [] });
    const after = await ownedRows(testApp, dana.id);
    expect(Object.entries(after).filter(([, rows]) => rows.length > 0)).toEqual([]);
    expect((await tokenAnswer(dana.token)).status).toBe(401);
    expect((await accounts()).map((node) => node.email)).not.toContain(dana.email);
    // The household Dana joined keeps her as a name (as when a member leaves); the joiner's lost Dana's.
    const { households } = await graphqlData(testApp, admin.token, '{ households { name members { name status } } }');
    expect(households).toEqual([
      {
        name: 'admin home',
        members: [
          { name: 'Ada Admin', status: 'JOINED' },
          { name: 'Dana', status: 'NAME_ONLY' },
        ],
      },
    ]);
    expect((await graphqlData(testApp, joiner.token, '{ households { id } }')).households).toEqual([]);
    expect(await countOwnedRows(testApp, 'users', joiner.id)).toBe(1);
  }, 60_000);

  it('refuses an account that is not there', async () => {
    const missing = await mutate(
      admin.token,
      'deleteAccount',
      { id: toGlobalId('Account', 2_000_000_000), confirmEmail: bea.email },
      'deletedAccountId',
    );
    expect(missing.userErrors.map((error: any) => error.code)).toEqual(['NOT_FOUND']);
  });
});

describe('the last admin', () => {
  it('cannot be disabled or deleted; the CLI makes another admin, and of two shutting each other out one stays', async () => {
    const self = (await accountOf(admin)).id;
    for (const [field, input] of [
      ['disableAccount', { id: self }],
      ['deleteAccount', { id: self, confirmEmail: admin.email }],
    ] as const) {
      const refused = await mutate(
        admin.token,
        field,
        input,
        field === 'deleteAccount' ? 'deletedAccountId' : 'account { id }',
      );
      expect([field, refused.userErrors.map((error: any) => error.code)]).toEqual([field, ['CONFLICT']]);
    }
    expect((await tokenAnswer(admin.token)).status).toBe(200);

    const cli = runCli(testApp.database.url, 'users:admin', '--email', ` ${bea.email.toUpperCase()}`);
    expect([cli.status, cli.stdout.trim()]).toEqual([0, `user ${bea.id} <${bea.email}> is an admin`]);
    const unknown = runCli(testApp.database.url, 'users:admin', '--email', 'nobody@example.com');
    expect(unknown.status).toBe(1);
    expect((await accountOf(bea)).admin).toBe(true);
    expect((await graphqlData(testApp, bea.token, ACCOUNTS)).accounts.totalCount).toBeGreaterThan(1);

    // Two admins disabling each other at once: one wins; the other is no admin by its turn, and is refused.
    const beaId = (await accountOf(bea)).id;
    const outcomes = await Promise.all([
      mutate(admin.token, 'disableAccount', { id: beaId }, 'account { id }'),
      mutate(bea.token, 'disableAccount', { id: self }, 'account { id }'),
    ]);
    const codes = outcomes.map((outcome) => outcome.userErrors.map((error: any) => error.code).join());
    expect(codes.sort()).toEqual(['', 'FORBIDDEN']);
    const [{ n }] = await sql<{ n: string }>(
      testApp,
      `select count(*) as "n" from "users" where "role_id" = 1 and "status" = 1`,
    );
    expect(Number(n)).toBe(1);
  });
});

describe('the audit log', () => {
  it('has an entry for each action on an account, newest first, with who did it and to whom', async () => {
    // Whichever admin is left after the last test.
    const reader = (await graphql(testApp, admin.token, '{ auditLog { totalCount } }')).body.errors ? bea : admin;
    const { auditLog } = await graphqlData(
      testApp,
      reader.token,
      '{ auditLog { totalCount nodes { id legacyId at action actorEmail targetId targetEmail details } } }',
    );
    const entries = auditLog.nodes as Array<Record<string, any>>;
    expect(entries.map((entry) => [entry.action, entry.actorEmail])).toEqual([
      ['ACCOUNT_DISABLED', expect.stringMatching(new RegExp(`^(${admin.email}|${bea.email})$`))],
      ['ADMIN_GRANTED', null],
      ['ACCOUNT_DELETED', admin.email],
      ['ACCOUNT_ENABLED', admin.email],
      ['ACCOUNT_DISABLED', admin.email],
    ]);
    expect(entries[1]).toMatchObject({ targetId: bea.id, targetEmail: bea.email, details: '{}' });
    const deletion = entries[2];
    expect(deletion.targetEmail).toMatch(/@example\.com$/);
    // Dana's record and its add-on.
    expect(JSON.parse(deletion.details)).toEqual({ name: 'Dana', createdAt: expect.any(String), recordCount: 2 });
    expect(entries[3].targetId).toBe(entries[4].targetId);
    expect(Date.parse(entries[0].at)).toBeGreaterThanOrEqual(Date.parse(entries[4].at));
    const { node } = await graphqlData(testApp, reader.token, 'query($id: ID!) { node(id: $id) { id } }', {
      id: entries[0].id,
    });
    expect(node).toEqual({ id: entries[0].id });
  });
});
