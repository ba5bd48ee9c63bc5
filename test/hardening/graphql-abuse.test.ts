import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

import { GRAPHQL_LIMITS } from '../../src/platform/graphql/server';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

let testApp: TestApp;
let production: TestApp;
let user: SignedUpUser & { globalId: string };

beforeAll(async () => {
  [testApp, production] = await Promise.all([startTestApp(), startTestApp({ NODE_ENV: 'production' })]);
  const signedUp = await signUp(testApp);
  user = { ...signedUp, globalId: (await graphqlData(testApp, signedUp.token, '{ me { id } }')).me.id };
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
  // The schema has no cycle, so its deepest valid documents are within the limit and run, unrefused: the
  // deepest query (a household's records' price history, 9 levels), the same reached through node(id:), and
  // the deepest mutation (a household made, with its records' price history: 10 levels, the limit itself).
  const history = 'priceHistory(first: 1) { edges { node { price { amount currency } } } }';
  const deepest = await post(testApp, {
    query: `{ households { subscriptions(first: 1) { edges { node { ${history} } } } } subscriptions(first: 1) { edges { node { ${history} } } } calendar { subscription { product { price { amount } } } } node(id: "${user.globalId}") { ... on User { legacyId } } }`,
  });
  expect(deepest.body.errors).toBeUndefined();
  expect(deepest.body.data).toEqual({
    households: expect.any(Array),
    subscriptions: { edges: expect.any(Array) },
    calendar: expect.any(Array),
    node: { legacyId: user.id },
  });
  const mutation = await post(testApp, {
    query: `mutation { createHousehold(input: {name: "Deep"}) { household { subscriptions(first: 1) { edges { node { ${history} } } } } userErrors { code } } }`,
  });
  expect(mutation.body.errors).toBeUndefined();
  expect(mutation.body.data.createHousehold).toEqual({ household: { subscriptions: { edges: [] } }, userErrors: [] });
});

it('refuses documents over the cost limit before running them', async () => {
  const page =
    'subscriptions(first: 1000) { totalCount edges { cursor node { id legacyId note price { amount currency } basePrice { amount currency } paymentDate tags { id name } folder { id name color } product { id productName brandName } paymentMode { id name } alerts { id name } } } }';
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
  const response = await post(testApp, [{ query: '{ me { legacyId } }' }, { query: '{ me { id } }' }]);
  expect(response.status).toBe(400);
  expect(JSON.stringify(response.body)).not.toContain(`"legacyId":${user.id}`);
  expect(JSON.stringify(response.body)).not.toContain(user.globalId);
});

it('answers introspection outside production only', async () => {
  const query = { query: '{ __schema { queryType { name } } }' };
  const development = await post(testApp, query);
  expect(development.body.data.__schema.queryType.name).toBe('Query');
  const refused = await post(production, query);
  expect(refused.body.data).toBeUndefined();
  expect(refused.body.errors[0].message).toMatch(/introspection/i);
});

describe('over WebSocket (graphql-transport-ws)', () => {
  interface Feed {
    events: unknown[];
    errors: unknown[];
  }

  /** Subscribes on the connection and collects what arrives. */
  function subscribe(client: Client, query: string, variables?: Record<string, unknown>): Feed {
    const feed: Feed = { events: [], errors: [] };
    client.subscribe(
      { query, variables },
      {
        next: (result) => void (result.errors ? feed.errors.push(result.errors) : feed.events.push(result.data)),
        error: (error) => void feed.errors.push(error),
        complete: () => undefined,
      },
    );
    return feed;
  }

  /** What the socket answers a document it refuses: its errors, and no event. */
  async function refusal(client: Client, query: string, variables?: Record<string, unknown>): Promise<string> {
    const feed = subscribe(client, query, variables);
    await until(() => feed.errors.length > 0 || feed.events.length > 0, 'an answer over the socket');
    expect(feed.events).toEqual([]);
    return JSON.stringify(feed.errors);
  }

  let client: Client;
  beforeAll(() => {
    client = createClient({
      url: `${testApp.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${user.token}` },
      retryAttempts: 0,
      shouldRetry: () => false,
    });
  });
  afterAll(() => client.dispose());

  it('refuses documents over the alias, depth, cost, token and directive limits, as over HTTP', async () => {
    const aliases = Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: recordId`).join(' ');
    expect(await refusal(client, `subscription { recordChanged { ${aliases} } }`)).toMatch(/alias/i);

    let nested = 'id';
    for (let level = 1; level < GRAPHQL_LIMITS.maxDepth + 2; level++) nested = `product { ${nested} }`;
    expect(await refusal(client, `subscription { recordChanged { record { ${nested} } } }`)).toMatch(/depth/i);

    const record =
      'id legacyId note price { amount currency } basePrice { amount currency } tags { id name } folder { id name } product { id productName price { amount currency } } alerts { id name } priceHistory(first: 100) { totalCount edges { cursor node { effectiveFrom price { amount currency } } } }';
    const costly = Array.from({ length: 5 }, (_, i) => `r${i}: record { ${record} }`).join(' ');
    expect(await refusal(client, `subscription { recordChanged { ${costly} } }`)).toMatch(/cost/i);

    const tokens = Array.from({ length: GRAPHQL_LIMITS.maxTokens }, () => 'recordId').join(' ');
    expect(await refusal(client, `subscription { recordChanged { ${tokens} } }`)).toMatch(/token/i);

    const directives = Array.from({ length: GRAPHQL_LIMITS.maxDirectives + 1 }, () => 'kind @include(if: true)');
    expect(await refusal(client, `subscription { recordChanged { ${directives.join(' ')} } }`)).toMatch(
      /directives limit/i,
    );

    // A variable its type refuses is the client's input, as over HTTP: never a masked internal error.
    const variable = await refusal(
      client,
      'subscription ($first: Int) { recordChanged { record { priceHistory(first: $first) { totalCount } } } }',
      { first: 'many' },
    );
    expect(variable).toMatch(/"code":"BAD_USER_INPUT"/);
    expect(variable).not.toMatch(/INTERNAL_SERVER_ERROR/);

    // No suggestions either, and queries and mutations go over HTTP only.
    const misspelt = await refusal(client, 'subscription { recordChangd { kind } }');
    expect(misspelt).not.toMatch(/Did you mean/i);
    expect(await refusal(client, '{ me { id } }')).toContain('Only subscriptions are served over WebSocket');
    expect(await refusal(client, 'mutation { logout { userErrors { code } } }')).toContain(
      'Only subscriptions are served over WebSocket',
    );
  });

  it('serves a subscription at the alias and directive limits', async () => {
    const aliases = Array.from(
      { length: GRAPHQL_LIMITS.maxAliases },
      (_, i) => `a${i}: recordId @include(if: true)`,
    ).join(' ');
    const more = Array.from(
      { length: GRAPHQL_LIMITS.maxDirectives - GRAPHQL_LIMITS.maxAliases },
      () => 'kind @include(if: true)',
    ).join(' ');
    const feed = subscribe(
      client,
      `subscription { recordChanged { ${aliases} ${more} record { id price { amount currency } } } }`,
    );
    // Records are made until one's change arrives: the subscription is live some time after it is sent.
    await until(async () => {
      if (feed.errors.length > 0) throw new Error(JSON.stringify(feed.errors));
      if (feed.events.length > 0) return true;
      expect((await postSubscription(testApp, user.token, MINIMAL)).status).toBe(200);
      return false;
    }, 'an event at the limits');
    const [event] = feed.events as Array<{ recordChanged: Record<string, unknown> }>;
    expect(event.recordChanged).toMatchObject({
      a0: expect.any(String),
      kind: 'CREATED',
      record: { id: expect.any(String), price: { amount: expect.any(String), currency: 'USD' } },
    });
  });
});
