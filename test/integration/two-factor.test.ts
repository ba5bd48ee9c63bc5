import { createHash } from 'node:crypto';

import { generate } from 'otplib';

import { LOGIN_FAILURES_PER_EMAIL } from '../../src/auth/login-throttle';
import { expectErrorBody } from '../support/shapes';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

const KEY = 'two-factor-test-secret-key-0123456789';
/** The server's clock: codes are made for the instant it reads, and a step later when a fresh code is needed. */
let now = new Date();
let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp({ NOTIFY_SECRET_KEY: KEY }, { clock: () => now });
});
afterAll(() => testApp.close());

const STEP_MS = 30_000;
/** Moves the server's clock to the next 30-second step: its code is one not used yet. */
const nextStep = () => (now = new Date(now.getTime() + STEP_MS));
/** The code an authenticator app shows at the server's now. */
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(now.getTime() / 1000) });
/** A six-digit code that is not `code`. */
const otherThan = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');

const START = `mutation { startTwoFactorEnrolment { uri secret qrCode userErrors { field code message } } }`;
const CONFIRM = `mutation($input: ConfirmTwoFactorInput!) { confirmTwoFactor(input: $input) {
  user { twoFactorEnabled recoveryCodesLeft } recoveryCodes userErrors { field code message } } }`;
const DISABLE = `mutation($input: DisableTwoFactorInput!) { disableTwoFactor(input: $input) {
  user { twoFactorEnabled recoveryCodesLeft } userErrors { field code message } } }`;
const REGENERATE = `mutation($input: RegenerateRecoveryCodesInput!) { regenerateRecoveryCodes(input: $input) {
  user { recoveryCodesLeft } recoveryCodes userErrors { field code message } } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { token user { twoFactorEnabled } userErrors { code } } }`;
const ME = '{ me { twoFactorEnabled recoveryCodesLeft } }';

const restLogin = (user: SignedUpUser, code?: string) => {
  const request = testApp.http.post('/api/v1/auth/login').field('email', user.email).field('password', user.password);
  return code === undefined ? request : request.field('code', code);
};

/** A new user with 2FA on: their secret and recovery codes. */
async function enrolled(): Promise<{ user: SignedUpUser; secret: string; recoveryCodes: string[] }> {
  const user = await signUp(testApp);
  const { startTwoFactorEnrolment } = await graphqlData(testApp, user.token, START);
  nextStep();
  const { confirmTwoFactor } = await graphqlData(testApp, user.token, CONFIRM, {
    input: { code: await codeNow(startTwoFactorEnrolment.secret) },
  });
  expect(confirmTwoFactor.userErrors).toEqual([]);
  return { user, secret: startTwoFactorEnrolment.secret, recoveryCodes: confirmTwoFactor.recoveryCodes };
}

describe('enrolment', () => {
  it('answers an otpauth URI of the secret, its QR code drawn as SVG, and changes nothing at login yet', async () => {
    const user = await signUp(testApp);
    const { startTwoFactorEnrolment: enrolment } = await graphqlData(testApp, user.token, START);
    expect(enrolment.userErrors).toEqual([]);
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrolment.uri);
    expect([uri.protocol, uri.host, decodeURIComponent(uri.pathname)]).toEqual([
      'otpauth:',
      'totp',
      `/Subledger:${user.email}`,
    ]);
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: enrolment.secret, issuer: 'Subledger' });
    expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(enrolment.qrCode.split(',')[1], 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
    // Drawn here: nothing in it points anywhere.
    expect(svg).not.toMatch(/href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);

    expect((await graphqlData(testApp, user.token, ME)).me).toEqual({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    expect((await restLogin(user)).status).toBe(201);
  });

  it('turns on with a right code only, and shows ten recovery codes that time alone', async () => {
    const user = await signUp(testApp);
    const { secret } = (await graphqlData(testApp, user.token, START)).startTwoFactorEnrolment;
    nextStep();
    const right = await codeNow(secret);
    const wrong = await graphql(testApp, user.token, CONFIRM, { input: { code: otherThan(right) } });
    expect(wrong.body.data.confirmTwoFactor).toEqual({
      user: null,
      recoveryCodes: null,
      userErrors: [
        { field: ['input', 'code'], code: 'BAD_USER_INPUT', message: 'The code is wrong, or was used already.' },
      ],
    });
    expect((await graphqlData(testApp, user.token, ME)).me.twoFactorEnabled).toBe(false);

    const { confirmTwoFactor } = await graphqlData(testApp, user.token, CONFIRM, { input: { code: right } });
    expect(confirmTwoFactor.user).toEqual({ twoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(confirmTwoFactor.userErrors).toEqual([]);
    const codes = confirmTwoFactor.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);

    // Not readable again: no field holds them, and the database only their hashes.
    const asked = await graphql(testApp, user.token, '{ me { recoveryCodes } }');
    expect(asked.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const again = await graphql(testApp, user.token, CONFIRM, { input: { code: await codeNow(secret) } });
    expect(again.body.data.confirmTwoFactor.userErrors[0].code).toBe('CONFLICT');
    const stored = await sql<{ code_hash: string }>(
      testApp,
      `select "code_hash" from "two_factor_recovery_codes" where "user_id" = ? order by "id"`,
      [user.id],
    );
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(stored.map((row) => row.code_hash).sort()).toEqual(
      codes.map((code) => sha256(code.replace(/-/g, ''))).sort(),
    );
  });

  it('keeps the secret sealed in the database, never in plain text', async () => {
    const { user, secret } = await enrolled();
    const [row] = await sql<{ sealed_secret: string }>(
      testApp,
      `select "sealed_secret" from "two_factor" where "user_id" = ?`,
      [user.id],
    );
    expect(row.sealed_secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row.sealed_secret).not.toContain(secret);
    expect(row.sealed_secret.toUpperCase()).not.toContain(secret);
  });

  it('refuses a second enrolment while 2FA is on, and a code of a replaced pending secret', async () => {
    const { user } = await enrolled();
    const started = await graphql(testApp, user.token, START);
    expect(started.body.data.startTwoFactorEnrolment.userErrors).toEqual([
      { field: [], code: 'CONFLICT', message: expect.stringMatching(/on already/) },
    ]);

    const other = await signUp(testApp);
    const first = (await graphqlData(testApp, other.token, START)).startTwoFactorEnrolment.secret;
    const second = (await graphqlData(testApp, other.token, START)).startTwoFactorEnrolment.secret;
    expect(second).not.toBe(first);
    nextStep();
    const stale = await graphql(testApp, other.token, CONFIRM, { input: { code: await codeNow(first) } });
    expect(stale.body.data.confirmTwoFactor.userErrors[0].code).toBe('BAD_USER_INPUT');
    const fresh = await graphqlData(testApp, other.token, CONFIRM, { input: { code: await codeNow(second) } });
    expect(fresh.confirmTwoFactor.user.twoFactorEnabled).toBe(true);
  });
});

describe('login with 2FA on', () => {
  it('without a code: REST 401 naming the field, GraphQL TWO_FACTOR_REQUIRED; with the code: a token', async () => {
    const { user, secret } = await enrolled();
    const rest = await restLogin(user);
    expect(rest.status).toBe(401);
    expectErrorBody(rest.body);
    expect(rest.body.message).toBe(
      'Two-factor code required: send the code of your authenticator app (or a recovery code) as the field "code"',
    );
    const bare = await graphql(testApp, null, LOGIN, { input: { email: user.email, password: user.password } });
    expect(bare.body.data).toBeNull();
    expect(bare.body.errors).toEqual([
      expect.objectContaining({ path: ['login'], extensions: { code: 'TWO_FACTOR_REQUIRED' } }),
    ]);
    // A wrong password says nothing of 2FA.
    const wrongPassword = await testApp.http
      .post('/api/v1/auth/login')
      .field('email', user.email)
      .field('password', 'not the password');
    expect([wrongPassword.status, wrongPassword.body.message]).toEqual([401, 'Invalid credentials']);

    nextStep();
    const signedIn = await restLogin(user, await codeNow(secret));
    expect(signedIn.status).toBe(201);
    expect(
      (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${signedIn.body.token}`)).status,
    ).toBe(200);
    nextStep();
    const { login } = await graphqlData(testApp, null, LOGIN, {
      input: { email: user.email, password: user.password, code: await codeNow(secret) },
    });
    expect(login).toEqual({ token: expect.stringMatching(/^\d+\|/), user: { twoFactorEnabled: true }, userErrors: [] });
  });

  it('refuses a code used once, within its window, and one of an earlier step', async () => {
    const { user, secret } = await enrolled();
    nextStep();
    const code = await codeNow(secret);
    expect((await restLogin(user, code)).status).toBe(201);
    const replayed = await restLogin(user, code);
    expect([replayed.status, replayed.body.message]).toEqual([401, 'Invalid two-factor code']);
    const earlier = await generate({ secret, epoch: Math.floor(now.getTime() / 1000) - 30 });
    expect((await restLogin(user, earlier)).status).toBe(401);
    nextStep();
    expect((await restLogin(user, await codeNow(secret))).status).toBe(201);
  });

  it('lets one of several concurrent logins with the same code through', async () => {
    const { user, secret } = await enrolled();
    // Eight at once: the password check runs on four threads, so several reach the code check together.
    for (let round = 0; round < 3; round++) {
      nextStep();
      const code = await codeNow(secret);
      const answers = await Promise.all(Array.from({ length: 8 }, () => restLogin(user, code)));
      const statuses = answers.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 401, 401, 401, 401, 401, 401, 401]);
    }
    const recovery = await enrolled();
    const recovered = await Promise.all(
      Array.from({ length: 4 }, () => restLogin(recovery.user, recovery.recoveryCodes[0])),
    );
    expect(recovered.map((response) => response.status).sort()).toEqual([201, 401, 401, 401]);
  });

  it('takes a recovery code once, however it is typed', async () => {
    const { user, recoveryCodes } = await enrolled();
    const typed = ` ${recoveryCodes[3].toUpperCase().replace(/-/g, ' ')} `;
    expect((await restLogin(user, typed)).status).toBe(201);
    expect((await restLogin(user, recoveryCodes[3])).status).toBe(401);
    const { me } = await graphqlData(testApp, user.token, ME);
    expect(me).toEqual({ twoFactorEnabled: true, recoveryCodesLeft: 9 });
    // Another account's codes are no codes of this one.
    const other = await enrolled();
    expect((await restLogin(user, other.recoveryCodes[0])).status).toBe(401);
  });

  it('counts wrong codes as failed logins: the 30th in a minute is refused, even with the right code', async () => {
    const { user, secret } = await enrolled();
    nextStep();
    const right = await codeNow(secret);
    for (let attempt = 1; attempt <= LOGIN_FAILURES_PER_EMAIL; attempt++)
      expect([attempt, (await restLogin(user, otherThan(right))).status]).toEqual([attempt, 401]);
    const refused = await restLogin(user, right);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('disabling and new recovery codes', () => {
  it('turns off only with a code, and login asks for none after', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    nextStep();
    const wrong = await graphql(testApp, user.token, DISABLE, { input: { code: otherThan(await codeNow(secret)) } });
    expect(wrong.body.data.disableTwoFactor).toEqual({
      user: null,
      userErrors: [{ field: ['input', 'code'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    const spent = await restLogin(user, recoveryCodes[0]);
    expect(spent.status).toBe(201);
    const withSpent = await graphql(testApp, user.token, DISABLE, { input: { code: recoveryCodes[0] } });
    expect(withSpent.body.data.disableTwoFactor.userErrors[0].code).toBe('BAD_USER_INPUT');
    expect((await restLogin(user)).status).toBe(401);

    const { disableTwoFactor } = await graphqlData(testApp, user.token, DISABLE, {
      input: { code: await codeNow(secret) },
    });
    expect(disableTwoFactor).toEqual({ user: { twoFactorEnabled: false, recoveryCodesLeft: 0 }, userErrors: [] });
    expect((await restLogin(user)).status).toBe(201);
    const left = await sql<{ n: number }>(
      testApp,
      `select (select count(*) from "two_factor" where "user_id" = ?)::int + (select count(*) from "two_factor_recovery_codes" where "user_id" = ?)::int as "n"`,
      [user.id, user.id],
    );
    expect(left).toEqual([{ n: 0 }]);
    const again = await graphql(testApp, user.token, DISABLE, { input: { code: '123456' } });
    expect(again.body.data.disableTwoFactor.userErrors[0].code).toBe('CONFLICT');
  });

  it('replaces the recovery codes given a code: the old ones stop working', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const wrong = await graphql(testApp, user.token, REGENERATE, { input: { code: 'not-a-code' } });
    expect(wrong.body.data.regenerateRecoveryCodes.userErrors[0].field).toEqual(['input', 'code']);
    nextStep();
    const { regenerateRecoveryCodes } = await graphqlData(testApp, user.token, REGENERATE, {
      input: { code: await codeNow(secret) },
    });
    expect(regenerateRecoveryCodes.user).toEqual({ recoveryCodesLeft: 10 });
    const fresh = regenerateRecoveryCodes.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect((await restLogin(user, recoveryCodes[1])).status).toBe(401);
    expect((await restLogin(user, fresh[1])).status).toBe(201);
  });
});

describe('the key secrets are sealed with', () => {
  it('is needed to enrol, and to start once an account has 2FA on', async () => {
    const keyless = await startTestApp();
    try {
      const user = await signUp(keyless);
      const started = await graphql(keyless, user.token, START);
      expect(started.body.data.startTwoFactorEnrolment.userErrors).toEqual([
        { field: [], code: 'CONFLICT', message: expect.stringMatching(/NOTIFY_SECRET_KEY/) },
      ]);
    } finally {
      await keyless.close();
    }
    await expect(startTestApp({}, {}, testApp.database)).rejects.toThrow(
      /NOTIFY_SECRET_KEY must be set: accounts have two-factor authentication on/,
    );
  });
});
