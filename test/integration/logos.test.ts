import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import sharp from 'sharp';

import { fetchImage } from '../../src/logos/logo-fetch';
import { provisionDatabase, type TestDatabase } from '../support/database';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday } from '../support/test-clock';
import { until } from '../support/wait';

/** Logos (docs/logos.md): fetched once from a vendor's site, uploaded by users, served from the origin. */

const LOGO_URL = /^\/logos\/[0-9a-f]{32}\.webp$/;

/** A picture of `width`×`height` in one colour, as `format`. */
function picture(format: 'png' | 'jpeg' | 'webp', width = 300, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .toFormat(format)
    .toBuffer();
}

/** An ICO file holding one PNG picture (the form today's favicons take). */
function icoOf(png: Buffer, side: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(side % 256, 6);
  header.writeUInt8(side % 256, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, png]);
}

/** A local vendor site: what it serves by path, and how often each path was asked for. */
class VendorSite {
  readonly hits = new Map<string, number>();
  private server!: Server;
  origin = '';

  constructor(
    private readonly pages: Record<string, { type: string; body: Buffer } | { redirect: string } | 'no answer'>,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const page = this.pages[path];
      if (!page) res.writeHead(404).end();
      else if (page === 'no answer') return;
      else if ('redirect' in page) res.writeHead(302, { location: page.redirect }).end();
      else res.writeHead(200, { 'content-type': page.type }).end(page.body);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  total(): number {
    return [...this.hits.values()].reduce((sum, count) => sum + count, 0);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const RECORD = `id logo product { id logo isPrivate }`;
const CREATE = `mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) {
  subscription { ${RECORD} } userErrors { field code message } } }`;
const LIST = `{ subscriptions(first: 50) { nodes { productName ${RECORD} } } }`;
const UPLOAD = `mutation($input: UploadLogoInput!) { uploadLogo(input: $input) { logo userErrors { field code message } } }`;
const REMOVE = `mutation($input: RemoveLogoInput!) { removeLogo(input: $input) { id userErrors { field code message } } }`;

let database: TestDatabase;
let testApp: TestApp;
let vendor: VendorSite;
let ann: SignedUpUser;
let bob: SignedUpUser;
/** Catalogue products pointing at the vendor site, by path. */
const products: Record<string, number> = {};
/** Ann's records of them, by path (global ids). */
const records: Record<string, string> = {};

const VENDOR_PATHS = [
  '/logo.png',
  '/favicon.ico',
  '/icon.svg',
  '/moved',
  '/page.html',
  '/big.png',
  '/fake.png',
  '/silent.png',
];

/** A catalogue product named `name` whose image is the vendor site's `path`, and Ann's record of it. */
async function annRecordOf(name: string, path: string): Promise<{ productId: number; recordId: string }> {
  const [{ id }] = await sql<{ id: number }>(
    testApp,
    `insert into "products" ("owner_id", "category_id", "product_name", "brandname", "image", "favicon")
     values (null, 1, ?, 'Vendor', ?, '') returning "id"`,
    [name, `${vendor.origin}${path}`],
  );
  const { createSubscription } = await graphqlData(testApp, ann.token, CREATE, {
    input: {
      productId: Buffer.from(`Product:${id}`).toString('base64url'),
      type: 'SUBSCRIPTION',
      price: '5',
      currency: 'USD',
      billingCycle: 'MONTHLY',
      paymentDate: daysFromToday(3),
    },
  });
  expect(createSubscription.userErrors).toEqual([]);
  return { productId: id, recordId: createSubscription.subscription.id };
}

beforeAll(async () => {
  const png = await picture('png');
  vendor = new VendorSite({
    '/logo.png': { type: 'image/png', body: png },
    '/favicon.ico': { type: 'image/x-icon', body: icoOf(await picture('png', 48, 48), 48) },
    '/icon.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#0a7"/></svg>',
      ),
    },
    '/moved': { redirect: '/logo.png' },
    '/page.html': { type: 'text/html', body: Buffer.from('<!doctype html><title>Vendor</title>') },
    '/big.png': { type: 'image/png', body: Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]) },
    '/fake.png': { type: 'image/png', body: Buffer.from('<!doctype html><p>not a picture</p>') },
    '/silent.png': 'no answer',
  });
  await vendor.start();
  database = await provisionDatabase();
  // First without fetching (the tests' default): LOGO_FETCH=off.
  testApp = await startTestApp({}, {}, database);
  ann = await signUp(testApp, 'Ann Logo');
  bob = await signUp(testApp, 'Bob Logo');
  for (const path of VENDOR_PATHS)
    ({ productId: products[path], recordId: records[path] } = await annRecordOf(`Vendor ${path}`, path));
}, 120_000);

afterAll(async () => {
  await testApp?.close();
  await vendor?.close();
  await database?.drop();
});

async function list(token: string): Promise<Array<Record<string, any>>> {
  return (await graphqlData(testApp, token, LIST)).subscriptions.nodes;
}

const logoOf = async (path: string) => (await list(ann.token)).find((node) => node.id === records[path])!;

function upload(token: string, id: string, file: Buffer, filename: string) {
  return testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .field('operations', JSON.stringify({ query: UPLOAD, variables: { input: { id, file: null } } }))
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', file, filename);
}

/** A served logo: a 128×128 WebP kept a year. */
async function expectServedLogo(url: string): Promise<Buffer> {
  const response = await testApp.http
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('image/webp');
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const metadata = await sharp(response.body as Buffer).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 128, 128]);
  return response.body as Buffer;
}

const fetchRows = () =>
  sql<{ product_id: number; error: string | null }>(testApp, `select "product_id", "error" from "logo_fetches"`);

describe('fetched logos', () => {
  it('LOGO_FETCH=off makes no request at all: every record keeps its monogram', async () => {
    testApp.app.logoRelay.nudge();
    expect(await testApp.app.services.logos.claimFetches(10)).toEqual([]);
    for (const node of await list(ann.token)) expect([node.productName, node.logo]).toEqual([node.productName, null]);
    expect(await fetchRows()).toEqual([]);
    expect(vendor.total()).toBe(0);
  });

  it('turned on, fetches each product once, re-encoded, and remembers why a fetch failed', async () => {
    await testApp.close();
    testApp = await startTestApp({ LOGO_FETCH: 'on', LOGO_ALLOW_PRIVATE: 'true' }, {}, database);
    testApp.app.logoRelay.nudge();
    await until(async () => (await fetchRows()).length === VENDOR_PATHS.length, 'a fetch of every product');
    const settled = async () => {
      const nodes = await list(ann.token);
      const errors = new Map((await fetchRows()).map((row) => [row.product_id, row.error]));
      return VENDOR_PATHS.every((path) => {
        const node = nodes.find((each) => each.id === records[path])!;
        return node.logo !== null || errors.get(products[path]) !== null;
      });
    };
    // A site that never answers is given up after the fetch's 10 s.
    await until(settled, 'every fetch to end in a logo or a reason', 30_000);

    const nodes = await list(ann.token);
    const shown = Object.fromEntries(
      VENDOR_PATHS.map((path) => [path, nodes.find((node) => node.id === records[path])!]),
    );
    for (const path of ['/logo.png', '/favicon.ico', '/icon.svg', '/moved']) {
      expect([path, shown[path].logo]).toEqual([path, expect.stringMatching(LOGO_URL)]);
      // The record shows its product's logo.
      expect(shown[path].product.logo).toBe(shown[path].logo);
      await expectServedLogo(shown[path].logo);
    }
    // The same picture by a redirect is the same logo.
    expect(shown['/moved'].logo).toBe(shown['/logo.png'].logo);
    const errors = Object.fromEntries((await fetchRows()).map((row) => [row.product_id, row.error]));
    for (const [path, reason] of [
      ['/page.html', /not an image: the answer is text\/html/],
      ['/big.png', /too large/],
      ['/fake.png', /not an image/],
      ['/silent.png', /timed out after 10000 ms/],
    ] as const) {
      expect([path, shown[path].logo, shown[path].product.logo]).toEqual([path, null, null]);
      expect([path, errors[products[path]]]).toEqual([path, expect.stringMatching(reason)]);
    }
    expect(errors[products['/logo.png']]).toBeNull();

    // Read again and nudged again: nothing is fetched a second time, failed or not.
    const hits = new Map(vendor.hits);
    testApp.app.logoRelay.nudge();
    await list(ann.token);
    expect(await testApp.app.services.logos.claimFetches(10)).toEqual([]);
    expect(vendor.hits).toEqual(hits);
    for (const path of VENDOR_PATHS.filter((each) => each !== '/moved'))
      expect([path, hits.get(path)]).toEqual([path, path === '/logo.png' ? 2 : 1]);

    // The catalogue answers the product's logo too.
    const { product } = await graphqlData(testApp, bob.token, `query($id: ID!) { product(id: $id) { logo } }`, {
      id: Buffer.from(`Product:${products['/favicon.ico']}`).toString('base64url'),
    });
    expect(product.logo).toBe(shown['/favicon.ico'].logo);
  });

  it('gives a claim back when its fetch fails for the server’s own reasons, and fetches it at a later round', async () => {
    const { productId, recordId } = await annRecordOf('Vendor again', '/logo.png');
    const logo = async () => (await list(ann.token)).find((node) => node.id === recordId)!.logo as string | null;
    const claimed = async () => (await fetchRows()).some((row) => row.product_id === productId);
    const hits = vendor.hits.get('/logo.png') ?? 0;
    // The logo fetched cannot be stored: the database refuses it.
    await sql(testApp, `alter table "logos" rename to "logos_away"`);
    try {
      testApp.app.logoRelay.nudge();
      await until(async () => (vendor.hits.get('/logo.png') ?? 0) > hits && !(await claimed()), 'the claim given back');
    } finally {
      await sql(testApp, `alter table "logos_away" rename to "logos"`);
    }
    testApp.app.logoRelay.nudge();
    await until(async () => (await logo()) !== null, 'the logo fetched at the next round');
    expect(await logo()).toMatch(LOGO_URL);
  });

  it('never from an internal address unless LOGO_ALLOW_PRIVATE is set', async () => {
    const before = vendor.total();
    await expect(fetchImage(`${vendor.origin}/logo.png`, false)).rejects.toThrow(/refused: .*loopback, private/);
    await expect(fetchImage('http://localhost./logo.png', false)).rejects.toThrow(/refused: .*this machine/);
    expect(vendor.total()).toBe(before);
  });

  it('an unknown or malformed logo name is not found', async () => {
    for (const path of ['/logos/0123456789abcdef0123456789abcdef.webp', '/logos/..%2Fpackage.json', '/logos/x.png'])
      expect([path, (await testApp.http.get(path)).status]).toEqual([path, 404]);
  });
});

describe('uploaded logos', () => {
  it('a PNG, a JPEG and a WebP each become the record’s logo, re-encoded; removing it shows the product’s again', async () => {
    const record = records['/page.html'];
    const seen: string[] = [];
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      // Declared as something else: the content decides.
      const response = await upload(ann.token, record, await picture(format, 100 + seen.length, 80), 'logo.bin');
      expect(response.body.data.uploadLogo).toEqual({ logo: expect.stringMatching(LOGO_URL), userErrors: [] });
      const { logo } = response.body.data.uploadLogo;
      expect((await logoOf('/page.html')).logo).toBe(logo);
      await expectServedLogo(logo);
      seen.push(logo);
    }
    expect(new Set(seen).size).toBe(3);
    // A replaced upload is no longer served.
    expect((await testApp.http.get(seen[0])).status).toBe(404);

    // On a record whose product has a fetched logo, the upload wins until removed.
    const withProductLogo = records['/logo.png'];
    const productLogo = (await logoOf('/logo.png')).logo;
    const own = (await upload(ann.token, withProductLogo, await picture('png', 64, 50), 'own.png')).body.data.uploadLogo
      .logo;
    expect((await logoOf('/logo.png')).logo).toBe(own);
    const removed = await graphqlData(testApp, ann.token, REMOVE, { input: { id: withProductLogo } });
    expect(removed.removeLogo).toEqual({ id: withProductLogo, userErrors: [] });
    expect((await logoOf('/logo.png')).logo).toBe(productLogo);
    expect((await testApp.http.get(own)).status).toBe(404);
    await expectServedLogo(productLogo);
  });

  it('refuses a 600 KB file and a text file named .png, changing nothing', async () => {
    const record = records['/page.html'];
    const before = (await logoOf('/page.html')).logo;
    const [{ count: logosBefore }] = await sql<{ count: string }>(testApp, `select count(*) from "logos"`);
    const noise = await sharp(
      Buffer.from(Array.from({ length: 420 * 420 * 3 }, () => Math.floor(Math.random() * 256))),
      {
        raw: { width: 420, height: 420, channels: 3 },
      },
    )
      .png()
      .toBuffer();
    expect(noise.length).toBeGreaterThan(512 * 1024);
    const tooLarge = await upload(ann.token, record, noise, 'big.png');
    expect(tooLarge.body.data.uploadLogo).toEqual({
      logo: null,
      userErrors: [{ field: [], code: 'PAYLOAD_TOO_LARGE', message: 'A logo may be at most 512 KB.' }],
    });
    const text = await upload(ann.token, record, Buffer.from('just some words, not a picture'), 'logo.png');
    expect(text.body.data.uploadLogo).toEqual({
      logo: null,
      userErrors: [{ field: [], code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/not an image/) }],
    });
    // A GIF is an image, but not one an upload takes.
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#123456' } })
      .gif()
      .toBuffer();
    expect((await upload(ann.token, record, gif, 'logo.gif')).body.data.uploadLogo.userErrors[0].code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect((await logoOf('/page.html')).logo).toBe(before);
    expect(await sql(testApp, `select count(*) from "logos"`)).toEqual([{ count: logosBefore }]);
  });

  it("another user's record, and a catalogue product, are not found", async () => {
    const [{ count: logosBefore }] = await sql<{ count: string }>(testApp, `select count(*) from "logos"`);
    const png = await picture('png', 40, 40);
    for (const id of [records['/page.html'], Buffer.from(`Product:${products['/page.html']}`).toString('base64url')]) {
      const uploaded = await upload(bob.token, id, png, 'mine.png');
      expect(uploaded.body.data.uploadLogo.logo).toBeNull();
      expect(uploaded.body.data.uploadLogo.userErrors).toEqual([
        { field: [], code: 'NOT_FOUND', message: expect.stringMatching(/not found/) },
      ]);
      const removed = await graphql(testApp, bob.token, REMOVE, { input: { id } });
      expect(removed.body.data.removeLogo.userErrors[0].code).toBe('NOT_FOUND');
    }
    expect(await sql(testApp, `select count(*) from "logos"`)).toEqual([{ count: logosBefore }]);
    // Ann's record still shows her upload.
    expect((await logoOf('/page.html')).logo).toMatch(LOGO_URL);
  });

  it('a private product takes an upload, which its records show', async () => {
    const { createSubscription } = await graphqlData(testApp, bob.token, CREATE, {
      input: {
        productName: 'Bob’s own tool',
        type: 'SUBSCRIPTION',
        price: '3',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        paymentDate: daysFromToday(5),
      },
    });
    const { product, logo } = createSubscription.subscription;
    expect([product.isPrivate, product.logo, logo]).toEqual([true, null, null]);
    const uploaded = await upload(bob.token, product.id, await picture('jpeg', 90, 60), 'tool.jpg');
    const productLogo = uploaded.body.data.uploadLogo.logo;
    expect(productLogo).toMatch(LOGO_URL);
    const [node] = await list(bob.token);
    expect([node.logo, node.product.logo]).toEqual([productLogo, productLogo]);
    // Ann cannot take it off.
    expect(
      (await graphql(testApp, ann.token, REMOVE, { input: { id: product.id } })).body.data.removeLogo.userErrors[0]
        .code,
    ).toBe('NOT_FOUND');
    await expectServedLogo(productLogo);
  });
});
