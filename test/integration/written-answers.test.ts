import { createHash } from 'node:crypto';

import fc from 'fast-check';
import { Kind, parse } from 'graphql';

import { encodeCursor } from '../../src/platform/graphql/cursors';
import { SelectionReader } from '../../src/platform/graphql/written-answers';
import { compileRecordPage } from '../../src/subscriptions/record-page.sql';
import { graphql, mutation, signUp, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';

/**
 * The page of records the database writes whole (record-page.sql.ts) against the executor's, over random
 * selections and arguments of records of every kind. Each query is answered twice: the first answer is the
 * executor's, which the executors' comparison of the tests also holds to the database's (any difference
 * fails the request); the second is the database's, sent as it wrote it, and must be the same again.
 */
let testApp: TestApp;
let token: string;
let folderId: string;
const statements: string[] = [];
afterAll(() => testApp.close());

beforeAll(async () => {
  // Nothing kept: every answer after the first is written by the database. The statements are counted, so no
  // background work (the relays poll) runs beside them.
  testApp = await startTestApp(
    { ANSWER_CACHE_MB: '0' },
    { onQuery: (statement) => statements.push(statement), background: false },
  );
  ({ token } = await signUp(testApp, 'Written'));
  const make = (field: string, input: Record<string, unknown>, result: string) =>
    mutation(testApp, token, field, input, result);
  await make('updateProfile', { baseCurrency: 'EUR' }, 'user { id }');
  folderId = (await make('createFolder', { name: 'Work "tools"', color: '#ff0000' }, 'folder { id }')).folder.id;
  const paymentModeId = (await make('createPaymentMode', { name: 'Visa ✓' }, 'paymentMode { id }')).paymentMode.id;
  const categoryId = (await make('createProductCategory', { name: 'Läsen' }, 'productCategory { id }')).productCategory
    .id;
  const records: Array<Record<string, unknown>> = [
    { productName: 'Plain', price: '9.99', currency: 'USD', billingCycle: 'MONTHLY', paymentDate: monthsFromToday(-3) },
    {
      productName: 'Every field "quoted"\n\ttabbed \\ 😀',
      price: '1200',
      currency: 'JPY',
      billingType: 'FIXED_DAYS',
      billingFrequency: 2,
      billingCycle: 'WEEKLY',
      paymentDate: daysFromToday(-40),
      folderId,
      paymentModeId,
      categoryId,
      description: 'line one\nline two\u0001',
      note: '<b>note</b> & “quotes”',
      discountVoucher: 'SAVE10',
      companyName: 'ACME',
      rating: 7,
      ltdvalPrice: '99.5',
      ltdvalCycle: 'YEARLY',
      ltdvalFrequency: 3,
      refundDays: 14,
      expiryDate: monthsFromToday(5),
      contractExpiry: monthsFromToday(11),
      contractNoticeDays: 30,
      timezone: 'Pacific/Kiritimati',
    },
    {
      productName: 'Lifetime',
      type: 'LIFETIME',
      recurring: 'ONCE',
      price: '0',
      currency: 'EUR',
      billingCycle: 'YEARLY',
      paymentDate: daysFromToday(-400),
    },
    {
      productName: 'Trial',
      type: 'TRIAL',
      status: 'DRAFT',
      price: '3.10',
      currency: 'GBP',
      billingCycle: 'DAILY',
      paymentDate: daysFromToday(3),
      folderId,
    },
    {
      productId: 'UHJvZHVjdDox',
      price: '15.49',
      currency: 'USD',
      billingCycle: 'YEARLY',
      paymentDate: daysFromToday(-1),
      status: 'CANCELLED',
    },
    {
      productName: 'Expired',
      price: '5',
      currency: 'CHF',
      billingCycle: 'MONTHLY',
      paymentDate: monthsFromToday(-14),
      expiryDate: monthsFromToday(-1),
      timezone: 'America/Adak',
    },
  ];
  const ids: string[] = [];
  for (const input of records) {
    const made = await make('createSubscription', { type: 'SUBSCRIPTION', ...input }, 'subscription { id }');
    if (!made.subscription) throw new Error(JSON.stringify(made.userErrors));
    ids.push(made.subscription.id);
  }
  const addon = await mutation(
    testApp,
    token,
    'addAddon',
    { mainRecordId: ids[0], price: '2.25', currency: 'USD', paymentDate: daysFromToday(-2) },
    'subscription { id }',
  );
  if (!addon.subscription) throw new Error(JSON.stringify(addon.userErrors));
});

const RECORD_LEAVES = [
  'id',
  'legacyId',
  'productName',
  'brandName',
  'image',
  'favicon',
  'homepage',
  'description',
  'note',
  'type',
  'recurring',
  'paymentDate',
  'nextPaymentDate',
  'lastPaymentDate',
  'billingType',
  'billingCycle',
  'billingFrequency',
  'status',
  'refundDays',
  'refundDate',
  'timezone',
  'rating',
  'discountVoucher',
  'companyName',
  'ltdvalCycle',
  'ltdvalFrequency',
  'expiryDate',
  'contractExpiry',
  'contractNoticeDays',
  'mainRecordId',
  'createdAt',
  'isAddon',
  '__typename',
];
const MONEY = ['amount', 'currency', '__typename'];
const OBJECTS: Record<string, string[]> = {
  price: MONEY,
  basePrice: MONEY,
  ltdvalPrice: MONEY,
  product: [
    'id',
    'legacyId',
    'name',
    'brandName',
    'type',
    'categoryId',
    'description',
    'url',
    'image',
    'billingCycle',
    'billingFrequency',
    'refundDays',
    'isPrivate',
    '__typename',
  ],
  folder: ['id', 'legacyId', 'name', 'color', 'isDefault', '__typename'],
  category: ['id', 'legacyId', 'name', 'isGlobal', 'createdAt', '__typename'],
  paymentMode: ['id', 'legacyId', 'name', '__typename'],
};

/** Some of `names`, in some order, up to `aliases` of them aliased (`a_<name>`): GraphQL takes 15 a query. */
const someOf = (names: string[], aliases = 0) =>
  fc
    .shuffledSubarray(names, { minLength: 1 })
    .chain((picked) =>
      fc.tuple(
        ...picked.map((name, index) =>
          fc.boolean().map((aliased) => (aliased && index < aliases ? `a_${name}: ${name}` : name)),
        ),
      ),
    );

/** A selection of a record: leaves and objects, some of it inside an inline fragment or the named one (`R`). */
const recordSelection = fc
  .tuple(
    someOf(RECORD_LEAVES, 3),
    fc
      .subarray(Object.keys(OBJECTS))
      .chain((objects) =>
        fc.tuple(...objects.map((name) => someOf(OBJECTS[name]).map((fields) => `${name} { ${fields.join(' ')} }`))),
      ),
    fc.constantFrom('plain', 'inline', 'named'),
  )
  .map(([leaves, objects, grouping]) => {
    const fields = [...leaves, ...objects];
    const split = Math.ceil(fields.length / 2);
    const [outer, inner] = [fields.slice(0, split).join(' '), fields.slice(split).join(' ')];
    if (grouping === 'plain' || !inner) return { selection: fields.join(' '), fragment: '' };
    if (grouping === 'inline') return { selection: `${outer} ... on SubscriptionRecord { ${inner} }`, fragment: '' };
    return { selection: `${outer} ...R`, fragment: `fragment R on SubscriptionRecord { ${inner} }` };
  });

const connectionSelection = fc
  .tuple(
    recordSelection,
    fc.shuffledSubarray(['totalCount', 'edges', 'nodes', 'pageInfo', '__typename'], { minLength: 1 }),
    someOf(['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor', '__typename'], 1),
    fc.boolean(),
  )
  .map(([{ selection, fragment }, parts, pageInfo, edgeCursor]) => ({
    // A fragment no selection spreads is refused.
    fragment: parts.includes('edges') || parts.includes('nodes') ? fragment : '',
    selection: parts
      .map((part) =>
        part === 'edges'
          ? `edges { ${edgeCursor ? 'cursor ' : ''}node { ${selection} } }`
          : part === 'nodes'
            ? `nodes { ${selection} }`
            : part === 'pageInfo'
              ? `pageInfo { ${pageInfo.join(' ')} }`
              : part,
      )
      .join(' '),
  }));

/** The page's arguments: a window, and perhaps an order, a filter and a search. */
const pageArguments = fc.record(
  {
    window: fc.oneof(
      fc.record({ first: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ first: fc.integer({ min: 1, max: 4 }), after: fc.integer({ min: 0, max: 9 }).map(encodeCursor) }),
      fc.record({ last: fc.integer({ min: 1, max: 4 }), before: fc.integer({ min: 1, max: 7 }).map(encodeCursor) }),
      fc.constant({}),
    ),
    orderBy: fc.record({
      field: fc.constantFrom('PAYMENT_DATE', 'PRODUCT_NAME', 'PRICE', 'CREATED_AT', 'STATUS', 'ID'),
      direction: fc.constantFrom('ASC', 'DESC'),
    }),
    filter: fc.oneof(
      fc.constant({ statuses: ['ACTIVE'] }),
      fc.constant({ types: ['SUBSCRIPTION', 'TRIAL'] }),
      fc.constant({ withoutFolder: true }),
      fc.constant({ folderIds: ['the folder'], withoutFolder: true }),
      fc.constant({ recurring: ['ONCE'] }),
    ),
    search: fc.constantFrom('e', 'plain', 'nothing like it'),
  },
  { requiredKeys: ['window'] },
);

function documentOf(selection: string, fragment: string): string {
  return `query Page($window: Int, $after: String, $last: Int, $before: String, $orderBy: SubscriptionOrder, $filter: SubscriptionFilter, $search: String) {
    subscriptions(first: $window, after: $after, last: $last, before: $before, orderBy: $orderBy, filter: $filter, search: $search) { ${selection} }
  } ${fragment}`;
}

it('answers random selections of the page the same, written by the database or executed', async () => {
  const samples = fc.sample(fc.tuple(connectionSelection, pageArguments), { numRuns: 80, seed: 20_261_127 });
  const filters = new Set<string>();
  for (const [{ selection, fragment }, args] of samples) {
    const query = documentOf(selection, fragment);
    // Every generated selection is one the database writes.
    const [operation] = parse(query).definitions;
    if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('one operation');
    const reader = new SelectionReader(
      new Map(
        parse(query)
          .definitions.filter((node) => node.kind === Kind.FRAGMENT_DEFINITION)
          .map((node) => [node.name.value, node]),
      ),
    );
    const [field] = reader.fieldsOf(operation.selectionSet, 'Query') ?? [];
    expect(compileRecordPage(field, reader)).not.toBeNull();

    const { first, ...window } = args.window as { first?: number };
    const filter = args.filter && JSON.parse(JSON.stringify(args.filter).replace('the folder', folderId));
    const variables = { window: first, ...window, orderBy: args.orderBy, filter, search: args.search };
    const executed = await graphql(testApp, token, query, variables);
    expect(executed.body.errors).toBeUndefined();
    const written = await graphql(testApp, token, query, variables);
    expect(written.status).toBe(200);
    expect(written.body).toEqual(executed.body);
    filters.add(`${JSON.stringify(args.filter)} ${executed.body.data.subscriptions.totalCount ?? ''}`);
  }
  // The arguments reached both: filters and searches of different counts were asked.
  expect(filters.size).toBeGreaterThan(5);
});

it('writes the answer of a query learnt by its text for its automatic persisted hash alone', async () => {
  const query = '{ subscriptions(first: 3) { totalCount nodes { productName price { amount } } } }';
  const hash = createHash('sha256').update(query).digest('hex');
  const executed = await graphql(testApp, token, query);
  expect(executed.body.data.subscriptions.nodes).toHaveLength(3);
  const byHash = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .send({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
  expect(byHash.status).toBe(200);
  expect(byHash.body).toEqual(executed.body);
});

it('writes a learnt page in one statement, the token check in it (beside the request limit)', async () => {
  const query = 'query Counted($size: Int) { subscriptions(first: $size) { totalCount nodes { id folder { name } } } }';
  await graphql(testApp, token, query, { size: 7 });
  statements.length = 0;
  const written = await graphql(testApp, token, query, { size: 6 });
  expect(written.body.data.subscriptions.nodes).toHaveLength(6);
  // Beside the request limit's count, which is a statement too where no Redis keeps it.
  const ofThePage = statements.filter((statement) => !statement.includes('"rate_limits"'));
  expect(ofThePage).toHaveLength(1);
  expect(ofThePage[0]).toMatch(/"data_version"/);
});

it('writes a page longer than one part whole, no character cut where the parts meet', async () => {
  // Each note 3,000 characters of one, two, three and four bytes: the page is three parts of 16,384
  // characters long, and their ends fall anywhere in a character's bytes.
  const note = 'aä€😀'.repeat(750);
  for (let i = 0; i < 12; i++) {
    const made = await mutation(
      testApp,
      token,
      'createSubscription',
      {
        type: 'SUBSCRIPTION',
        productName: `Long ${i}`,
        price: '1',
        currency: 'EUR',
        billingCycle: 'MONTHLY',
        paymentDate: daysFromToday(-1),
        note,
      },
      'subscription { id }',
    );
    if (!made.subscription) throw new Error(JSON.stringify(made.userErrors));
  }
  const query = '{ subscriptions(first: 50, search: "Long") { totalCount nodes { productName note } } }';
  const executed = await graphql(testApp, token, query);
  expect(executed.body.data.subscriptions.totalCount).toBe(12);
  const written = await graphql(testApp, token, query);
  // Characters as PostgreSQL counts them (code points): three parts at least.
  expect([...written.text].length).toBeGreaterThan(2 * 16_384);
  expect(written.body).toEqual(executed.body);
  expect(written.body.data.subscriptions.nodes.map((node: { note: string }) => node.note)).toEqual(
    Array(12).fill(note),
  );
});
