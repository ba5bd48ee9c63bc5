import { GRAPHQL_LIMITS } from '../../src/platform/graphql/server';
import { type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let production: TestApp;
let user: SignedUpUser;

beforeAll(async () => {
  [testApp, production] = await Promise.all([startTestApp(), startTestApp({ NODE_ENV: 'production' })]);
  user = await signUp(testApp);
});
afterAll(() => Promise.all([testApp.close(), production.close()]));

const post = (app: TestApp, body: unknown) =>
  app.http
    .post('/graphql')
    .set('content-type', 'application/json')
    .set('authorization', `Bearer ${user.token}`)
    .send(body as object);

it('refuses more aliases than the limit', async () => {
  const aliases = Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: me { id }`).join(' ');
  const response = await post(testApp, { query: `{ ${aliases} }` });
  expect(response.body.errors[0].message).toMatch(/alias/i);
  expect(response.body.data).toBeUndefined();
});

it('refuses documents deeper than the limit, and runs the deepest the schema allows', async () => {
  const nested = (depth: number) => {
    let selection = 'id';
    for (let level = 1; level < depth; level++) selection = `f${level}: me { ${selection} }`;
    return `{ ${selection} }`;
  };
  const deep = await post(testApp, { query: nested(GRAPHQL_LIMITS.maxDepth + 2) });
  expect(deep.body.errors.map((error: { message: string }) => error.message).join(' | ')).toMatch(/depth/i);
  expect(deep.body.data).toBeUndefined();
  // The schema has no cycle, so its deepest valid document (below) is far from the limit: it runs, unrefused.
  const deepest = await post(testApp, {
    query:
      '{ subscriptions(first: 1) { edges { node { product { id } folder { id } } } } calendar { subscription { product { id } } } }',
  });
  expect(deepest.body.errors).toBeUndefined();
  expect(deepest.body.data.subscriptions.edges).toEqual(expect.any(Array));
});

it('refuses documents over the cost limit before running them', async () => {
  const page =
    'subscriptions(first: 1000) { totalCount edges { cursor node { id note price currency paymentDate tags { id name } folder { id name color } product { id productName brandName } paymentMode { id name } alerts { id name } } } }';
  const aliases = Array.from({ length: GRAPHQL_LIMITS.maxAliases }, (_, i) => `p${i}: ${page}`).join(' ');
  const response = await post(testApp, { query: `{ ${aliases} }` });
  expect(JSON.stringify(response.body.errors)).toMatch(/cost/i);
  expect(response.body.data).toBeUndefined();
});

it('refuses documents with more tokens than the limit', async () => {
  const fields = Array.from({ length: GRAPHQL_LIMITS.maxTokens }, () => 'id').join(' ');
  const response = await post(testApp, { query: `{ me { ${fields} } }` });
  expect(JSON.stringify(response.body.errors)).toMatch(/token/i);
  // A refused document is the client's fault: 400, like the other limits, never 500.
  expect(response.status).toBe(400);
  const aliases = Array.from({ length: 800 }, (_, index) => `a${index}: __typename`).join(' ');
  expect((await post(testApp, { query: `{ ${aliases} }` })).status).toBe(400);
});

it('refuses more directives than the limit, and allows them at the limit', async () => {
  const document = (count: number) =>
    `{ ${Array.from({ length: count }, (_, index) => `a${index}: __typename @include(if: true)`).join(' ')} }`;
  const over = await post(testApp, { query: document(GRAPHQL_LIMITS.maxDirectives + 1) });
  expect(over.status).toBe(400);
  expect(over.body.errors.map((error: { message: string }) => error.message)).toEqual([
    expect.stringMatching(/directives limit/i),
  ]);
  const at = await post(testApp, { query: document(GRAPHQL_LIMITS.maxDirectives) });
  expect(at.body.errors).toBeUndefined();
  expect(Object.keys(at.body.data)).toHaveLength(GRAPHQL_LIMITS.maxDirectives);
});

it('gives no field suggestions, in development or production', async () => {
  for (const app of [testApp, production]) {
    const response = await post(app, { query: '{ mee { id } subscriptions { edgs { id } } }' });
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(response.body.errors)).not.toMatch(/Did you mean/i);
  }
});

it('does not execute batched requests', async () => {
  const response = await post(testApp, [{ query: '{ me { id } }' }, { query: '{ me { id } }' }]);
  expect(response.status).toBe(400);
  expect(JSON.stringify(response.body)).not.toContain(`"id":${user.id}`);
});

it('answers introspection outside production only', async () => {
  const query = { query: '{ __schema { queryType { name } } }' };
  const development = await post(testApp, query);
  expect(development.body.data.__schema.queryType.name).toBe('Query');
  const refused = await post(production, query);
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors[0].message).toMatch(/introspection/i);
});
