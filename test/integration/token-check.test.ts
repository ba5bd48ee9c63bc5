import { createSubscription, updateProfile } from '../support/subscriptions';
import { graphql, graphqlData, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Once a process has confirmed a token, it knows the token's user without the database, and the list and
 * upcoming check the token in their own statement. That check must be as strict as the check alone: a revoked
 * or expired token gets 401 on those reads, whether an answer of theirs is kept or not, and a use still slides
 * the token's expiry.
 */
let testApp: TestApp;
const statements: string[] = [];
afterAll(() => testApp.close());
beforeAll(async () => {
  testApp = await startTestApp({}, { onQuery: (statement) => statements.push(statement) });
});

const READS = ['/api/v1/subscriptions?length=100', '/api/v1/subscriptions/upcoming?days=30'];
const read = (path: string, token: string) => testApp.http.get(path).set('authorization', `Bearer ${token}`);

async function knownToken(): Promise<{ token: string; tokenId: number }> {
  const user = await signUp(testApp, 'Checked');
  await createSubscription(testApp, user.token, {});
  // The first uses confirm the token alone and make the answers, which are then kept.
  for (const path of READS) expect((await read(path, user.token)).status).toBe(200);
  return { token: user.token, tokenId: Number(user.token.split('|')[0]) };
}

/** The token's expiry set a minute back. */
const expire = (tokenId: number) =>
  sql(
    testApp,
    `update "access_tokens" set "expires_at" = (now() at time zone 'utc') - interval '1 minute' where "id" = ?`,
    [tokenId],
  );

function expectUnauthenticated(response: { status: number; body: unknown }): void {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ status: false, message: expect.stringMatching(/unauthenticated/i) });
}

it('answers 401 on both reads once the token is revoked, with and without a kept answer', async () => {
  const { token } = await knownToken();
  expect((await read('/api/v1/auth/logout', token)).status).toBe(200);
  for (const path of READS) expectUnauthenticated(await read(path, token));
  // A request no answer is kept for: the check runs within the read's own statement.
  expectUnauthenticated(await read('/api/v1/subscriptions?length=7', token));
});

it('answers 401 on both reads once the token has expired', async () => {
  const { token, tokenId } = await knownToken();
  await expire(tokenId);
  for (const path of [...READS, '/api/v1/subscriptions?length=9']) expectUnauthenticated(await read(path, token));
});

it('slides the expiry of a token used only on these reads', async () => {
  const { token, tokenId } = await knownToken();
  const expiry = async () =>
    (
      await sql<{ expires_at: string }>(testApp, `select "expires_at"::text from "access_tokens" where "id" = ?`, [
        tokenId,
      ])
    )[0].expires_at;
  await sql(
    testApp,
    `update "access_tokens" set "expires_at" = (now() at time zone 'utc') + interval '2 days' where "id" = ?`,
    [tokenId],
  );
  const before = await expiry();
  const answer = await read('/api/v1/subscriptions?length=11', token);
  expect(answer.status).toBe(200);
  expect(answer.body).toHaveLength(1);
  expect(Date.parse(`${await expiry()}Z`)).toBeGreaterThan(Date.parse(`${before}Z`) + 20 * 86_400_000);
});

it('answers another token of the same user, and no token at all, as before', async () => {
  const { token } = await knownToken();
  const [id, secret] = token.split('|');
  expectUnauthenticated(await read(READS[0], `${id}|${secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))}`));
  expectUnauthenticated(await testApp.http.get(READS[0]));
});

describe('GraphQL, whose token is checked in the statement of an answer the database writes', () => {
  /** A page the database writes (learnt at its first answer), and a query it does not write (alerts, me). */
  const PAGE = 'query Page($size: Int) { subscriptions(first: $size) { totalCount nodes { id productName } } }';
  const EXECUTED = ['{ subscriptions(first: 5) { nodes { id alerts { id } } } }', '{ me { email } }'];
  const ask = (query: string, token: string, variables?: Record<string, unknown>) =>
    graphql(testApp, token, query, variables);

  /** A token whose queries have all been answered once, and the page twice (the second time written). */
  async function knownGraphQLToken(): Promise<{ token: string; tokenId: number }> {
    const user = await signUp(testApp, 'Checked on GraphQL');
    await createSubscription(testApp, user.token, {});
    for (const query of EXECUTED) expect((await ask(query, user.token)).body.errors).toBeUndefined();
    for (let i = 0; i < 2; i++)
      expect((await ask(PAGE, user.token, { size: 5 })).body.data.subscriptions).toEqual({
        totalCount: 1,
        nodes: [{ id: expect.any(String), productName: expect.any(String) }],
      });
    return { token: user.token, tokenId: Number(user.token.split('|')[0]) };
  }

  function expectRefused(response: { body: any }): void {
    expect(response.body.data ?? null).toBeNull();
    expect(response.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  }

  /** Every kind of answer: kept (size 5), written afresh (size 4: no answer kept), executed. */
  async function expectAllRefused(token: string): Promise<void> {
    expectRefused(await ask(PAGE, token, { size: 5 }));
    expectRefused(await ask(PAGE, token, { size: 4 }));
    for (const query of EXECUTED) expectRefused(await ask(query, token));
  }

  it('refuses every query once the token is revoked', async () => {
    const { token } = await knownGraphQLToken();
    expect((await testApp.http.get('/api/v1/auth/logout').set('authorization', `Bearer ${token}`)).status).toBe(200);
    await expectAllRefused(token);
  });

  it('refuses every query once the token has expired', async () => {
    const { token, tokenId } = await knownGraphQLToken();
    await expire(tokenId);
    await expectAllRefused(token);
  });
});

it('gives a spending summary the settings its token check read: no read of its own, a change seen at once', async () => {
  const { token } = await knownToken();
  const summary = async () => {
    statements.length = 0;
    const { spendingSummary } = await graphqlData<{ spendingSummary: { baseCurrency: string } }>(
      testApp,
      token,
      '{ spendingSummary(groupBy: CATEGORY) { baseCurrency monthlyTotal { amount currency } } }',
    );
    return spendingSummary;
  };
  const settingsReads = () => statements.filter((statement) => /from "users" where "id"/.test(statement));
  expect(await summary()).toEqual({
    baseCurrency: 'USD',
    monthlyTotal: { amount: expect.any(String), currency: 'USD' },
  });
  expect(settingsReads()).toEqual([]);
  // The check reads them afresh on every request: a change is in the very next summary.
  await updateProfile(testApp, token, { baseCurrency: 'EUR' });
  expect(await summary()).toEqual({
    baseCurrency: 'EUR',
    monthlyTotal: { amount: expect.any(String), currency: 'EUR' },
  });
  expect(settingsReads()).toEqual([]);
});
