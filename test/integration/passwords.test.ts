import { Client } from 'pg';

import { LOGIN_FAILURES_PER_EMAIL } from '../../src/auth/login-throttle';
import { RESET_REQUESTS_PER_ADDRESS, RESET_REQUESTS_PER_EMAIL } from '../../src/auth/reset-throttle';
import { sha256Hex } from '../../src/auth/secrets';
import { FakeSmtp } from '../support/fake-smtp';
import { runCli } from '../support/service-process';
import { graphql, type SignedUpUser, signUp, sql, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { until } from '../support/wait';

/**
 * Issue 44's passwords, over HTTP: a change (the current password checked and throttled like a login, the
 * sign-up length rule, the other tokens revoked unless kept), and a reset by a mailed single-use link valid 30
 * minutes on the app's clock (the same answer for an unknown address, throttled, one use of two at once), or by
 * the operator's CLI link.
 */
const smtp = new FakeSmtp();
const BASE_URL = 'https://subledger.example.com';
let testApp: TestApp;
let now = new Date();

beforeAll(async () => {
  await smtp.start();
  testApp = await startTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Subledger <test@example.com>', BASE_URL },
    { clock: () => now },
  );
});
afterAll(async () => {
  await testApp.close();
  await smtp.stop();
});
beforeEach(() => {
  now = new Date();
});

const USER = 'user { legacyId email }';
const ERRORS = 'userErrors { field code message }';
const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { ${USER} ${ERRORS} } }`;
const REQUEST = `mutation($input: RequestPasswordResetInput!) { requestPasswordReset(input: $input) { linkValidMinutes ${ERRORS} } }`;
const RESET = `mutation($input: ResetPasswordInput!) { resetPassword(input: $input) { ${USER} ${ERRORS} } }`;

const changePassword = (token: string, input: Record<string, unknown>) =>
  graphql(testApp, token, CHANGE, { input }).then((response) => response.body);
const requestReset = (email: string, app = testApp) =>
  graphql(app, null, REQUEST, { input: { email } }).then((response) => response.body);
const resetPassword = (token: string, newPassword: string) =>
  graphql(testApp, null, RESET, { input: { token, newPassword } }).then((response) => response.body);

const restLogin = (email: string, password: string) =>
  testApp.http.post('/api/v1/auth/login').field('email', email).field('password', password);
/** A further session of the user's, as a REST client makes one. */
async function newToken(email: string, password: string): Promise<string> {
  const response = await restLogin(email, password);
  expect(response.status).toBe(201);
  return response.body.token as string;
}
/** The REST status a token gets: 200 while it is live, 401 once revoked. */
const restStatus = async (token: string) =>
  (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${token}`)).status;

/** The reset link of the newest mail to `to` (its text part, quoted-printable decoded). */
function linkMailedTo(to: string): { url: string; token: string } | null {
  const message = smtp.messages.filter((raw) => raw.includes(`To: ${to}`)).at(-1);
  if (!message) return null;
  const text = message
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const match = /(https:\/\/\S+\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(text);
  return match ? { url: match[1], token: match[2] } : null;
}
const mailsTo = (to: string) => smtp.messages.filter((raw) => raw.includes(`To: ${to}`)).length;

/** Asks for a link for the user and waits for its mail. */
async function mailedLink(user: SignedUpUser): Promise<string> {
  const before = mailsTo(user.email);
  expect(await requestReset(user.email)).toEqual({
    data: { requestPasswordReset: { linkValidMinutes: 30, userErrors: [] } },
  });
  await until(() => mailsTo(user.email) === before + 1, 'the reset mail');
  return linkMailedTo(user.email)!.token;
}

const refusedOn = (field: string) => ({ field: ['input', field], code: 'BAD_USER_INPUT', message: expect.any(String) });

describe('changePassword', () => {
  it('refuses a wrong current password and a too short new one in userErrors, changing nothing', async () => {
    const user = await signUp(testApp);
    const wrong = await changePassword(user.token, {
      currentPassword: 'not the password',
      newPassword: 'a new password',
    });
    expect(wrong.data.changePassword).toEqual({ user: null, userErrors: [refusedOn('currentPassword')] });
    const short = await changePassword(user.token, { currentPassword: user.password, newPassword: 'short' });
    expect(short.data.changePassword).toEqual({ user: null, userErrors: [refusedOn('newPassword')] });
    // The sign-up rule, word for word.
    const signUpShort = await graphql(
      testApp,
      null,
      'mutation { signUp(input: {email: "s@example.com", password: "short", name: "S"}) { userErrors { message } } }',
    );
    expect(short.data.changePassword.userErrors[0].message).toBe(signUpShort.body.data.signUp.userErrors[0].message);
    expect((await restLogin(user.email, user.password)).status).toBe(201);
    expect(await restStatus(user.token)).toBe(200);
  });

  it('sets the password and revokes every other token of the account, not the one that asked', async () => {
    const user = await signUp(testApp);
    const others = [await newToken(user.email, user.password), await newToken(user.email, user.password)];
    const bystander = await signUp(testApp);
    const changed = await changePassword(user.token, {
      currentPassword: user.password,
      newPassword: 'a brand new password',
    });
    expect(changed).toEqual({
      data: { changePassword: { user: { legacyId: user.id, email: user.email }, userErrors: [] } },
    });
    expect(await Promise.all(others.map(restStatus))).toEqual([401, 401]);
    expect(await restStatus(user.token)).toBe(200);
    expect(await restStatus(bystander.token)).toBe(200);
    expect((await restLogin(user.email, user.password)).status).toBe(401);
    expect((await restLogin(user.email, 'a brand new password')).status).toBe(201);
  });

  it('keeps the other tokens when asked to', async () => {
    const user = await signUp(testApp);
    const other = await newToken(user.email, user.password);
    const changed = await changePassword(user.token, {
      currentPassword: user.password,
      newPassword: 'kept sessions password',
      keepOtherSessions: true,
    });
    expect(changed.data.changePassword.userErrors).toEqual([]);
    expect([await restStatus(user.token), await restStatus(other)]).toEqual([200, 200]);
    expect((await restLogin(user.email, 'kept sessions password')).status).toBe(201);
  });

  it('needs a signed-in caller', async () => {
    const answer = await graphql(testApp, null, CHANGE, {
      input: { currentPassword: 'x', newPassword: 'long enough' },
    });
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('counts wrong current passwords as failed logins: RATE_LIMITED after as many, even for the right one', async () => {
    const user = await signUp(testApp);
    for (let attempt = 1; attempt <= LOGIN_FAILURES_PER_EMAIL; attempt++) {
      const wrong = await changePassword(user.token, {
        currentPassword: `wrong ${attempt}`,
        newPassword: 'long enough',
      });
      expect([attempt, wrong.data.changePassword.userErrors]).toEqual([attempt, [refusedOn('currentPassword')]]);
    }
    const refused = await changePassword(user.token, { currentPassword: user.password, newPassword: 'long enough' });
    expect(refused.data).toBeNull();
    expect(refused.errors).toEqual([
      expect.objectContaining({
        path: ['changePassword'],
        extensions: expect.objectContaining({ code: 'RATE_LIMITED' }),
      }),
    ]);
    // One budget: login is refused as well.
    expect((await restLogin(user.email, user.password)).status).toBe(429);
  });

  it('runs at most one password mutation per request', async () => {
    const user = await signUp(testApp);
    const two = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${user.token}`)
      .send({
        query: `mutation { a: changePassword(input: {currentPassword: "x1", newPassword: "long enough"}) { ${ERRORS} } b: resetPassword(input: {token: "t", newPassword: "long enough"}) { ${ERRORS} } }`,
      });
    expect(two.status).toBe(400);
    expect(two.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('requestPasswordReset and resetPassword', () => {
  it('answers an unknown address exactly as a known one, and mails only the account, a link to the dashboard', async () => {
    const user = await signUp(testApp);
    const unknown = uniqueEmail('nobody');
    const mails = smtp.messages.length;
    const unknownAnswer = await graphql(testApp, null, REQUEST, { input: { email: unknown } });
    const knownAnswer = await graphql(testApp, null, REQUEST, { input: { email: ` ${user.email.toUpperCase()} ` } });
    expect(unknownAnswer.status).toBe(knownAnswer.status);
    expect(unknownAnswer.body).toEqual({ data: { requestPasswordReset: { linkValidMinutes: 30, userErrors: [] } } });
    expect(knownAnswer.body).toEqual(unknownAnswer.body);
    await until(() => smtp.messages.length > mails, 'the reset mail');
    expect(smtp.messages.length).toBe(mails + 1);
    expect(mailsTo(unknown)).toBe(0);
    const link = linkMailedTo(user.email)!;
    expect(link.url).toBe(`${BASE_URL}/reset-password?token=${link.token}`);
    // Only the token's hash is stored.
    const rows = await sql<{ token_hash: string }>(
      testApp,
      `select "token_hash" from "password_resets" where "user_id" = ?`,
      [user.id],
    );
    expect(rows).toEqual([{ token_hash: sha256Hex(link.token) }]);
    // The link's path serves the dashboard.
    const page = await testApp.http.get(`/reset-password?token=${link.token}`);
    expect([page.status, page.headers['content-type']]).toEqual([200, expect.stringMatching(/^text\/html/)]);
  });

  it('sets the password once with the link, revoking every token of the account; it signs nobody in', async () => {
    const user = await signUp(testApp);
    const other = await newToken(user.email, user.password);
    const token = await mailedLink(user);
    const tooShort = await resetPassword(token, 'short');
    expect(tooShort.data.resetPassword).toEqual({ user: null, userErrors: [refusedOn('newPassword')] });
    const reset = await resetPassword(token, 'a reset password');
    expect(reset).toEqual({
      data: { resetPassword: { user: { legacyId: user.id, email: user.email }, userErrors: [] } },
    });
    expect([await restStatus(user.token), await restStatus(other)]).toEqual([401, 401]);
    expect((await restLogin(user.email, user.password)).status).toBe(401);
    expect((await restLogin(user.email, 'a reset password')).status).toBe(201);
    const again = await resetPassword(token, 'another password');
    expect(again.data.resetPassword).toEqual({ user: null, userErrors: [refusedOn('token')] });
    expect((await restLogin(user.email, 'a reset password')).status).toBe(201);
  });

  it('refuses an unknown token on `token`', async () => {
    const unknown = await resetPassword('not-a-token-anyone-was-given', 'long enough password');
    expect(unknown.data.resetPassword).toEqual({ user: null, userErrors: [refusedOn('token')] });
    expect(unknown.errors[0].extensions).toEqual({ code: 'BAD_USER_INPUT', errors: { token: [expect.any(String)] } });
  });

  it('works for 30 minutes of the clock, not after', async () => {
    const [early, late] = [await signUp(testApp), await signUp(testApp)];
    const [earlyToken, lateToken] = [await mailedLink(early), await mailedLink(late)];
    now = new Date(now.getTime() + 29 * 60_000);
    expect((await resetPassword(earlyToken, 'in time password')).data.resetPassword.userErrors).toEqual([]);
    now = new Date(now.getTime() + 2 * 60_000);
    expect((await resetPassword(lateToken, 'too late password')).data.resetPassword).toEqual({
      user: null,
      userErrors: [refusedOn('token')],
    });
    expect((await restLogin(late.email, late.password)).status).toBe(201);
  });

  it('keeps an earlier link valid after a second request, until one of them is used', async () => {
    const user = await signUp(testApp);
    const first = await mailedLink(user);
    const second = await mailedLink(user);
    expect(second).not.toBe(first);
    expect((await resetPassword(first, 'first link password')).data.resetPassword.userErrors).toEqual([]);
    expect((await resetPassword(second, 'second link password')).data.resetPassword.userErrors).toEqual([
      refusedOn('token'),
    ]);
  });

  it('lets one of several concurrent uses of a link through', async () => {
    const user = await signUp(testApp);
    const token = await mailedLink(user);
    const passwords = ['racing password 1', 'racing password 2', 'racing password 3', 'racing password 4'];
    // The link's row held by a transaction of the test's own, so that every use is under way, waiting on it,
    // when it is let go: all of them race for it at once. (A second connection watches: statistics read in a
    // transaction are a snapshot.)
    const [gate, watch] = [1, 2].map(() => new Client({ connectionString: testApp.database.url }));
    await Promise.all([gate.connect(), watch.connect()]);
    try {
      await gate.query('begin');
      await gate.query(`select 1 from "password_resets" where "token_hash" = $1 for update`, [sha256Hex(token)]);
      const racing = Promise.all(passwords.map((password) => resetPassword(token, password)));
      const waiting = async () =>
        (
          await watch.query<{ n: number }>(
            `select count(*)::int as "n" from pg_stat_activity
              where "datname" = current_database() and "wait_event_type" = 'Lock' and "query" like '%password_resets%'`,
          )
        ).rows[0].n;
      await until(async () => (await waiting()) === passwords.length, 'every use to wait on the link');
      await gate.query('rollback');
      const answers = await racing;
      const won = answers.flatMap((answer, index) => (answer.data.resetPassword.user ? [passwords[index]] : []));
      expect(won).toHaveLength(1);
      for (const answer of answers.filter((one) => !one.data.resetPassword.user))
        expect(answer.data.resetPassword.userErrors).toEqual([refusedOn('token')]);
      const logins = await Promise.all(
        passwords.map(async (password) => (await restLogin(user.email, password)).status),
      );
      expect(logins).toEqual(passwords.map((password) => (password === won[0] ? 201 : 401)));
    } finally {
      await Promise.all([gate.end(), watch.end()]);
    }
  });

  it('prints a one-time link with the CLI (no e-mail needed), and refuses an address without an account', async () => {
    const user = await signUp(testApp);
    const run = runCli(testApp.database.url, 'users:reset-password', '--email', user.email);
    expect([run.status, run.stderr]).toEqual([0, '']);
    const [, token] = /\/reset-password\?token=([A-Za-z0-9_-]+)\s*$/.exec(run.stdout) ?? [];
    expect(run.stdout).toMatch(
      /^password reset link for <.+> \(works once, within 30 minutes\):\nhttp:\/\/localhost:\d+\/reset-password\?token=/,
    );
    expect((await resetPassword(token, 'a cli reset password')).data.resetPassword.userErrors).toEqual([]);
    expect((await resetPassword(token, 'a cli reset password')).data.resetPassword.userErrors).toEqual([
      refusedOn('token'),
    ]);
    expect((await restLogin(user.email, 'a cli reset password')).status).toBe(201);
    const unknown = runCli(testApp.database.url, 'users:reset-password', '--email', uniqueEmail('nobody'));
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/not found/);
  });
});

describe('reset requests without SMTP', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(() => plain.close());

  it('answer the same, store nothing, and are throttled per e-mail and per address alike for any address', async () => {
    const user = await signUp(plain);
    const unknown = uniqueEmail('nobody');
    const ok = { data: { requestPasswordReset: { linkValidMinutes: 30, userErrors: [] } } };
    for (let attempt = 1; attempt <= RESET_REQUESTS_PER_EMAIL; attempt++) {
      expect([attempt, await requestReset(user.email, plain)]).toEqual([attempt, ok]);
      expect([attempt, await requestReset(unknown, plain)]).toEqual([attempt, ok]);
    }
    const limited = (answer: Record<string, any>) => [
      answer.data,
      answer.errors.map((error: any) => error.extensions.code),
    ];
    expect(limited(await requestReset(user.email, plain))).toEqual([null, ['RATE_LIMITED']]);
    expect(limited(await requestReset(unknown, plain))).toEqual([null, ['RATE_LIMITED']]);
    expect(await sql(plain, `select * from "password_resets"`)).toEqual([]);
    // The address's allowance: 2 × 5 taken (refused ones count too, 2), the rest on fresh addresses.
    const left = RESET_REQUESTS_PER_ADDRESS - 2 * RESET_REQUESTS_PER_EMAIL - 2;
    for (let attempt = 1; attempt <= left; attempt++)
      expect([attempt, await requestReset(uniqueEmail('sweep'), plain)]).toEqual([attempt, ok]);
    expect(limited(await requestReset(uniqueEmail('sweep'), plain))).toEqual([null, ['RATE_LIMITED']]);
  });
});
