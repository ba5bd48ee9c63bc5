import { createHash } from 'node:crypto';

import { FakeSmtp } from '../support/fake-smtp';
import { runCli } from '../support/service-process';
import {
  graphql,
  graphqlData,
  mutation,
  type SignedUpUser,
  signUp,
  sql,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../support/test-app';
import { until } from '../support/wait';

/**
 * Issue 44's sign-up modes and invitations, over HTTP: the mode an admin sets at run time (ALLOW_SIGNUP until
 * then), readable by anyone; invite-only sign-up with a code that works once, for its address only, until it
 * expires or is revoked; closed sign-up; and the audit log of it all.
 */
let testApp: TestApp;
let smtp: FakeSmtp;
let admin: SignedUpUser;
let bea: SignedUpUser;

const SIGN_UP = `mutation($input: SignUpInput!) {
  signUp(input: $input) { token user { legacyId } userErrors { field code message } }
}`;
const INVITATION = 'id legacyId email createdAt expiresAt status';

/** A mutation of one input as `token`: its payload (results and userErrors). */
const mutate = (token: string, field: string, input: Record<string, unknown>, results: string) =>
  mutation(testApp, token, field, input, results);

/** A sign-up's payload: the user and token, or why it was refused. */
async function trySignUp(invitationCode?: string, email = uniqueEmail()) {
  const response = await graphql(testApp, null, SIGN_UP, {
    input: { email, password: 'correct horse battery', name: 'Newcomer', invitationCode },
  });
  return response.body.data.signUp as { token: string | null; user: { legacyId: number } | null; userErrors: any[] };
}

const codesOf = (payload: Record<string, any>) =>
  (payload.userErrors as Array<{ code: string }>).map((error) => error.code);
const signUpMode = async (token: string | null = null) =>
  (await graphqlData(testApp, token, '{ instance { signUpMode } }')).instance.signUpMode;
const setMode = (mode: string, token = admin.token) =>
  mutate(token, 'setSignUpMode', { mode }, 'instance { signUpMode }');
const invite = async (email?: string) => {
  const made = await mutate(
    admin.token,
    'createInvitation',
    { email },
    `invitation { ${INVITATION} } code link emailed`,
  );
  expect(made.userErrors).toEqual([]);
  return made;
};
/** Refused for its invitation code: the one answer for every unusable code. */
const refusedCode = (payload: Awaited<ReturnType<typeof trySignUp>>) => {
  expect(payload).toEqual({
    token: null,
    user: null,
    userErrors: [{ field: ['input', 'invitationCode'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
  });
};

beforeAll(async () => {
  smtp = new FakeSmtp();
  await smtp.start();
  testApp = await startTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Subledger <s@example.com>' });
  admin = await signUp(testApp, 'Ada Admin');
  bea = await signUp(testApp, 'Bea');
});

afterAll(async () => {
  await testApp.close();
  await smtp.stop();
});

describe('the sign-up mode', () => {
  it('is ALLOW_SIGNUP until an admin sets it, anyone may read it, and only an admin set it', async () => {
    expect(await signUpMode()).toBe('OPEN');
    const refused = await setMode('CLOSED', bea.token);
    expect([refused.instance, codesOf(refused)]).toEqual([null, ['FORBIDDEN']]);
    expect(await signUpMode(bea.token)).toBe('OPEN');
    expect(await setMode('INVITE_ONLY')).toEqual({ instance: { signUpMode: 'INVITE_ONLY' }, userErrors: [] });
    expect(await signUpMode()).toBe('INVITE_ONLY');
  });

  it('invite-only: refused without a code; a code signs up once, and then no more', async () => {
    const without = await trySignUp();
    expect([without.user, without.token, codesOf(without)]).toEqual([null, null, ['FORBIDDEN']]);

    const made = await invite();
    expect(made.emailed).toBe(false);
    expect(made.link).toBe(`${testApp.config.baseUrl}/#invitation=${encodeURIComponent(made.code)}`);
    expect(made.invitation).toMatchObject({ email: null, status: 'PENDING' });
    const days = (Date.parse(made.invitation.expiresAt) - Date.parse(made.invitation.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
    // Only the code's hash is kept.
    const [stored] = await sql<{ code_hash: string }>(testApp, `select "code_hash" from "invitations" where "id" = ?`, [
      made.invitation.legacyId,
    ]);
    expect(stored.code_hash).toBe(createHash('sha256').update(made.code).digest('hex'));

    const joined = await trySignUp(made.code);
    expect(joined.userErrors).toEqual([]);
    expect(
      (await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${joined.token}`)).body.role_id,
    ).toBe(2);
    refusedCode(await trySignUp(made.code));
    const { node } = await graphqlData(
      testApp,
      admin.token,
      `query($id: ID!) { node(id: $id) { ... on Invitation { status } } }`,
      {
        id: made.invitation.id,
      },
    );
    expect(node).toEqual({ status: 'USED' });
  });

  it('invite-only: two sign-ups at once with one code make one account', async () => {
    const made = await invite();
    const emails = [uniqueEmail(), uniqueEmail()];
    const outcomes = await Promise.all(emails.map((email) => trySignUp(made.code, email)));
    expect(outcomes.map((outcome) => outcome.user !== null).sort()).toEqual([false, true]);
    const [{ n }] = await sql<{ n: string }>(
      testApp,
      `select count(*) as "n" from "users" where "email" in (?, ?)`,
      emails,
    );
    expect(Number(n)).toBe(1);
  });

  it('an invitation for an address is mailed there and serves that address only', async () => {
    const address = uniqueEmail('invited');
    const made = await invite(address);
    expect([made.emailed, made.invitation.email]).toEqual([true, address]);
    await until(() => smtp.messages.some((message) => message.includes(address)), 'the invitation e-mail');
    const mail = smtp.messages.find((message) => message.includes(address))!;
    expect(mail.replace(/=\r?\n/g, '')).toContain(made.code);
    refusedCode(await trySignUp(made.code));
    expect((await trySignUp(made.code, address.toUpperCase())).userErrors).toEqual([]);
  });

  it('an expired or revoked code is refused as a used one is', async () => {
    const expiring = await invite();
    await sql(
      testApp,
      `update "invitations" set "expires_at" = (now() at time zone 'utc') - interval '1 second' where "id" = ?`,
      [expiring.invitation.legacyId],
    );
    refusedCode(await trySignUp(expiring.code));
    const revoking = await invite();
    const revoked = await mutate(
      admin.token,
      'revokeInvitation',
      { id: revoking.invitation.id },
      `invitation { status }`,
    );
    expect(revoked).toEqual({ invitation: { status: 'REVOKED' }, userErrors: [] });
    refusedCode(await trySignUp(revoking.code));
    const again = await mutate(
      admin.token,
      'revokeInvitation',
      { id: revoking.invitation.id },
      `invitation { status }`,
    );
    expect(codesOf(again)).toEqual(['CONFLICT']);
    refusedCode(await trySignUp('not a code at all'));

    const { invitations } = await graphqlData(
      testApp,
      admin.token,
      `{ invitations(first: 2) { totalCount nodes { id status } } }`,
    );
    expect(invitations.nodes).toEqual([
      { id: revoking.invitation.id, status: 'REVOKED' },
      { id: expiring.invitation.id, status: 'EXPIRED' },
    ]);
    const forbidden = await graphql(
      testApp,
      bea.token,
      `
        {
          invitations {
            totalCount
          }
        }
      `,
    );
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(codesOf(await mutate(bea.token, 'createInvitation', {}, 'code'))).toEqual(['FORBIDDEN']);
  });

  it('closed: refused even with a usable code; open again: anyone', async () => {
    const made = await invite();
    await setMode('CLOSED');
    expect(await signUpMode()).toBe('CLOSED');
    expect(codesOf(await trySignUp(made.code))).toEqual(['FORBIDDEN']);
    expect(codesOf(await trySignUp())).toEqual(['FORBIDDEN']);
    await setMode('OPEN');
    expect((await trySignUp()).userErrors).toEqual([]);
    // A code given while open is checked and used all the same.
    expect((await trySignUp(made.code)).userErrors).toEqual([]);
    refusedCode(await trySignUp(made.code));
  });

  it('writes every admin action to the audit log, newest first, which only admins read', async () => {
    const { auditLog } = await graphqlData(
      testApp,
      admin.token,
      '{ auditLog(first: 50) { totalCount nodes { action actorEmail targetEmail details } } }',
    );
    const entries = auditLog.nodes as Array<{
      action: string;
      actorEmail: string;
      targetEmail: string | null;
      details: string;
    }>;
    expect(entries.map((entry) => entry.action)).toEqual([
      'SIGN_UP_MODE_SET',
      'SIGN_UP_MODE_SET',
      'INVITATION_CREATED',
      'INVITATION_REVOKED',
      'INVITATION_CREATED',
      'INVITATION_CREATED',
      'INVITATION_CREATED',
      'INVITATION_CREATED',
      'INVITATION_CREATED',
      'SIGN_UP_MODE_SET',
    ]);
    expect(new Set(entries.map((entry) => entry.actorEmail))).toEqual(new Set([admin.email]));
    expect(entries.map((entry) => JSON.parse(entry.details)).filter((details) => 'to' in details)).toEqual([
      { from: 'CLOSED', to: 'OPEN' },
      { from: 'INVITE_ONLY', to: 'CLOSED' },
      { from: 'OPEN', to: 'INVITE_ONLY' },
    ]);
    expect(entries.filter((entry) => entry.targetEmail !== null).map((entry) => entry.targetEmail)).toEqual([
      expect.stringMatching(/^invited\./),
    ]);
    const refused = await graphql(testApp, bea.token, '{ auditLog { totalCount } }');
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('ALLOW_SIGNUP=false', () => {
  it('is the closed default; the first account, made with the CLI, is the admin and may open sign-up', async () => {
    const closed = await startTestApp({ ALLOW_SIGNUP: 'false' });
    try {
      const mode = await graphqlData(closed, null, '{ instance { signUpMode } }');
      expect(mode.instance.signUpMode).toBe('CLOSED');
      const email = uniqueEmail('operator');
      const made = runCli(
        closed.database.url,
        'user:create',
        '--email',
        email,
        '--password',
        'correct horse battery',
        '--name',
        'Op',
      );
      expect(made.status).toBe(0);
      const login = await closed.http
        .post('/api/v1/auth/login')
        .field('email', email)
        .field('password', 'correct horse battery');
      expect([login.status, login.body.user.role_id]).toEqual([201, 1]);
      const opened = await graphqlData(
        closed,
        login.body.token,
        'mutation { setSignUpMode(input: {mode: OPEN}) { instance { signUpMode } userErrors { code } } }',
      );
      expect(opened.setSignUpMode).toEqual({ instance: { signUpMode: 'OPEN' }, userErrors: [] });
      const second = await signUp(closed, 'Second');
      expect(
        (await closed.http.get('/api/v1/auth/token').set('authorization', `Bearer ${second.token}`)).body.role_id,
      ).toBe(2);
    } finally {
      await closed.close();
    }
  });
});
