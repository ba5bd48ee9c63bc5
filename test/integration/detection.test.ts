import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { normalisePayee } from '../../src/detection/payee-names';
import type { BankTransaction, StatementFormat } from '../../src/detection/statement';
import { fromGlobalId, toGlobalId } from '../../src/platform/graphql/global-ids';
import { countOwnedRows } from '../support/hardening';
import { runCli } from '../support/service-process';
import { generateStatement } from '../support/statement-generator';
import { writeStatement } from '../support/statement-writers';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { monthsFromToday, today } from '../support/test-clock';

/** Bank statements uploaded as a GraphQL client uploads a file, their proposals accepted and dismissed. */
let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

const PROPOSAL_FIELDS = `id legacyId payee productId productName price { amount currency } billingCycle billingFrequency
  nextPaymentDate ongoing confidence reasons payments { date amount { amount currency } }
  priceSteps { effectiveFrom price { amount currency } } trackedSubscriptionId`;
const ANALYZE = `mutation ($input: AnalyzeStatementInput!) {
  analyzeStatement(input: $input) {
    analysis { needsMapping columns sample transactionCount proposals { ${PROPOSAL_FIELDS} } }
    userErrors { field code message }
  }
}`;

interface Money {
  amount: string;
  currency: string;
}
interface Proposal {
  id: string;
  legacyId: number;
  payee: string;
  productId: string | null;
  productName: string | null;
  price: Money;
  billingCycle: string;
  billingFrequency: number;
  nextPaymentDate: string;
  ongoing: boolean;
  confidence: number;
  reasons: string[];
  payments: Array<{ date: string; amount: Money }>;
  priceSteps: Array<{ effectiveFrom: string; price: Money }>;
  trackedSubscriptionId: string | null;
}

/** The BillingCycle names of the codes (a record's REST billing_cycle). */
const CYCLES: Record<number, string> = { 1: 'DAILY', 2: 'WEEKLY', 3: 'MONTHLY', 4: 'YEARLY' };

function analyze(token: string, file: Buffer, variables: Record<string, unknown> = {}) {
  return testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .field('operations', JSON.stringify({ query: ANALYZE, variables: { input: { file: null, ...variables } } }))
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', file, 'statement');
}

async function proposalsOf(token: string, file: Buffer, variables: Record<string, unknown> = {}) {
  const response = await analyze(token, file, variables);
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data.analyzeStatement.userErrors).toEqual([]);
  return response.body.data.analyzeStatement.analysis as {
    needsMapping: boolean;
    columns: string[];
    sample: string[][];
    transactionCount: number;
    proposals: Proposal[];
  };
}

/** A statement of the last two years, ending today. */
function statement(seed: number) {
  return generateStatement(seed, { from: monthsFromToday(-24), months: 24, currency: 'EUR' });
}

/** The proposal of a payee, compared as the detector groups payees ("HUK-Coburg" is "Huk Coburg"). */
const byPayee = (proposals: Proposal[], payee: string) =>
  proposals.find((proposal) => normalisePayee(proposal.payee).key === normalisePayee(payee).key);

/** The top-level fields of a selection (nested selections taken out, innermost first). */
function topFields(selection: string): string[] {
  let fields = selection;
  while (/\{[^{}]*\}/.test(fields)) fields = fields.replace(/\{[^{}]*\}/g, '');
  return fields.split(/\s+/).filter(Boolean).sort();
}

function expectProposalShape(proposal: Proposal): void {
  expect(Object.keys(proposal).sort()).toEqual(topFields(PROPOSAL_FIELDS));
  expect(proposal.id).toBe(toGlobalId('SubscriptionProposal', proposal.legacyId));
  expect(Number.isInteger(proposal.legacyId)).toBe(true);
  expect(typeof proposal.payee).toBe('string');
  expect(proposal.price).toEqual({
    amount: expect.stringMatching(/^\d+\.\d{2}$/),
    currency: expect.stringMatching(/^[A-Z]{3}$/),
  });
  if (proposal.productId !== null) expect(fromGlobalId(proposal.productId)?.typeName).toBe('Product');
  expect(['WEEKLY', 'MONTHLY', 'YEARLY']).toContain(proposal.billingCycle);
  expect(Number.isInteger(proposal.billingFrequency)).toBe(true);
  expect(proposal.nextPaymentDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(typeof proposal.ongoing).toBe('boolean');
  expect(proposal.confidence).toBeGreaterThan(0);
  expect(proposal.confidence).toBeLessThanOrEqual(1);
  expect(proposal.reasons.length).toBeGreaterThan(0);
  expect(proposal.payments.length).toBeGreaterThanOrEqual(2);
  for (const payment of proposal.payments) {
    expect(payment.date <= today()).toBe(true);
    expect(payment.amount).toEqual({
      amount: expect.stringMatching(/^\d+\.\d{2}$/),
      currency: proposal.price.currency,
    });
  }
  expect(proposal.priceSteps[proposal.priceSteps.length - 1].price).toEqual(proposal.price);
  // A catalogue product only when its name is the payee's, the one the other's first words ("Disney+" for
  // "Disney Plus", "Adobe Creative Cloud All Apps" for "Adobe Creative Cloud"), never a close spelling of another
  // name ("Anytime Fitness" for "FitX").
  if (proposal.productName !== null) {
    const [product, payee] = [proposal.productName, proposal.payee].map((name) => normalisePayee(name).key);
    const same = payee === product || payee.startsWith(`${product} `) || product.startsWith(`${payee} `);
    expect([proposal.payee, same]).toEqual([proposal.payee, true]);
  }
}

describe('analyzeStatement', () => {
  let ann: SignedUpUser;
  beforeAll(async () => {
    ann = await signUp(testApp, 'Ann');
  });

  const formats: Array<[string, StatementFormat | undefined, Parameters<typeof writeStatement>[2]]> = [
    ['CSV (a German bank: semicolons, Latin-1, day-first dates, decimal commas)', 'csv', 'german'],
    ['CSV (English)', 'csv', 'english'],
    ['CSV (debit and credit columns, month-first dates)', 'csv', 'us'],
    ['OFX', 'ofx', undefined],
    ['CAMT.053', 'camt053', undefined],
    ['MT940', 'mt940', undefined],
  ];

  it.each(formats)(
    'proposes the recurring payments of %s, and not the salary or the groceries',
    async (_, format, style) => {
      const { transactions, truth } = statement(7);
      const file = writeStatement(transactions, format ?? 'csv', style);
      // The format is recognised from the file; naming it reads the same.
      const found = await proposalsOf(ann.token, file);
      expect(found.needsMapping).toBe(false);
      expect(found.transactionCount).toBe(transactions.length);
      for (const proposal of found.proposals) expectProposalShape(proposal);
      for (const series of truth) {
        const proposal = byPayee(found.proposals, series.payee);
        expect([series.payee, proposal && [proposal.billingCycle, proposal.billingFrequency]]).toEqual([
          series.payee,
          [CYCLES[series.period.cycle], series.period.frequency],
        ]);
        expect(proposal!.ongoing).toBe(series.ongoing);
      }
      const outgoing = (transaction: BankTransaction) => transaction.amount.startsWith('-');
      const salary = transactions.find((transaction) => !outgoing(transaction) && Number(transaction.amount) > 1000);
      expect(salary).toBeDefined();
      expect(
        found.proposals.some((proposal) => salary!.payee.toLowerCase().includes(proposal.payee.toLowerCase())),
      ).toBe(false);
      expect(
        (await proposalsOf(ann.token, file, { format: format?.toUpperCase() })).proposals.map((p) => p.id),
      ).toEqual(found.proposals.map((p) => p.id));
    },
  );

  it('asks for the columns of an unknown CSV layout, then remembers the mapping given', async () => {
    const bob = await signUp(testApp, 'Bob');
    const file = writeStatement(statement(11).transactions, 'csv', 'unknown');
    const asked = await proposalsOf(bob.token, file);
    expect(asked).toMatchObject({ needsMapping: true, transactionCount: 0, proposals: [] });
    expect(asked.columns.length).toBeGreaterThanOrEqual(3);
    expect(asked.sample.length).toBeGreaterThan(0);
    for (const row of asked.sample) expect(row.length).toBe(asked.columns.length);
    const [date, payee, amount] = asked.columns;
    const mapped = await proposalsOf(bob.token, file, {
      mapping: { date, payee, amount, defaultCurrency: 'EUR' },
    });
    expect(mapped.needsMapping).toBe(false);
    expect(mapped.proposals.length).toBeGreaterThan(3);
    // The next file of that layout needs no mapping.
    const again = await proposalsOf(bob.token, file);
    expect(again.proposals.map((proposal) => proposal.id)).toEqual(mapped.proposals.map((proposal) => proposal.id));
  });

  it('refuses a file it cannot read, naming the line, and stores nothing', async () => {
    const cara = await signUp(testApp, 'Cara');
    const good = writeStatement(statement(3).transactions, 'csv', 'english').toString('utf8').split('\n');
    good[4] = good[4].replace(/-?\d+\.\d{2}/, '12,3,4.5');
    const response = await analyze(cara.token, Buffer.from(good.join('\n')));
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(response.body.errors[0].message).toMatch(/line 5/);
    expect(response.body.data.analyzeStatement).toEqual({
      analysis: null,
      userErrors: [{ field: expect.any(Array), code: 'BAD_USER_INPUT', message: expect.stringMatching(/line 5/) }],
    });
    expect(await countOwnedRows(testApp, 'statement_proposals', cara.id)).toBe(0);
    const tooLarge = await analyze(cara.token, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(tooLarge.body.errors[0]).toMatchObject({
      message: 'The statement is over the 10 MB an analysis takes.',
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(tooLarge.body.data.analyzeStatement).toEqual({
      analysis: null,
      userErrors: [
        { field: [], code: 'PAYLOAD_TOO_LARGE', message: 'The statement is over the 10 MB an analysis takes.' },
      ],
    });
    expect(await countOwnedRows(testApp, 'statement_proposals', cara.id)).toBe(0);
  });
});

const ACCEPT = `mutation($input: AcceptProposalsInput!) {
  acceptProposals(input: $input) { records { id price { amount currency } } userErrors { field code message } }
}`;
const ACCEPT_RECORDS = `mutation($input: AcceptProposalsInput!) {
  acceptProposals(input: $input) {
    records {
      id productName price { amount currency } billingCycle billingFrequency status paymentDate
      priceHistory { totalCount nodes { effectiveFrom price { amount currency } } }
    }
    userErrors { field code message }
  }
}`;
const DISMISS = `mutation($input: DismissProposalsInput!) {
  dismissProposals(input: $input) { dismissedProposalIds userErrors { field code message } }
}`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id legacyId ... on SubscriptionProposal { payee price { amount currency } } } }`;

describe('a proposal as a node', () => {
  it('is found by node(id:) by its owner while open, and by no one else', async () => {
    const hal = await signUp(testApp, 'Hal');
    const [proposal] = (await proposalsOf(hal.token, writeStatement(statement(51).transactions, 'ofx'))).proposals;
    expect((await graphqlData(testApp, hal.token, NODE, { id: proposal.id })).node).toEqual({
      __typename: 'SubscriptionProposal',
      id: proposal.id,
      legacyId: proposal.legacyId,
      payee: proposal.payee,
      price: proposal.price,
    });
    const stranger = await signUp(testApp, 'Ivy');
    expect((await graphqlData(testApp, stranger.token, NODE, { id: proposal.id })).node).toBeNull();
  });
});

describe('accepting and dismissing proposals', () => {
  it('accepts proposals into records with their payments paid and their price history, all or none', async () => {
    const dan = await signUp(testApp, 'Dan');
    const eve = await signUp(testApp, 'Eve');
    const { transactions, truth } = statement(21);
    const found = await proposalsOf(dan.token, writeStatement(transactions, 'ofx'));
    const risen = found.proposals.find((proposal) => proposal.priceSteps.length > 1);
    const ended = found.proposals.find((proposal) => !proposal.ongoing);
    expect(risen).toBeDefined();
    expect(ended).toBeDefined();
    const evesOwn = (await proposalsOf(eve.token, writeStatement(statement(22).transactions, 'ofx'))).proposals[0];

    // Another user's proposal among them: nothing is accepted.
    const refused = await graphql(testApp, dan.token, ACCEPT, { input: { ids: [risen!.id, evesOwn.id] } });
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(refused.body.data.acceptProposals).toEqual({
      records: null,
      userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
    });
    // An id of another type names no proposal: refused on its place in the list.
    const wrongType = await graphql(testApp, dan.token, ACCEPT, {
      input: { ids: [risen!.id, toGlobalId('Budget', risen!.legacyId)] },
    });
    expect(wrongType.body.data.acceptProposals.userErrors).toEqual([
      { field: ['input', 'ids', '1'], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    const none = await graphql(testApp, dan.token, ACCEPT, { input: { ids: [] } });
    expect(none.body.data.acceptProposals.userErrors).toEqual([
      { field: ['input', 'ids'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    expect(await countOwnedRows(testApp, 'subscriptions', dan.id)).toBe(0);
    expect(await countOwnedRows(testApp, 'payment_entries', dan.id)).toBe(0);

    const { acceptProposals } = await graphqlData(testApp, dan.token, ACCEPT_RECORDS, {
      input: { ids: [risen!.id, ended!.id] },
    });
    expect(acceptProposals.userErrors).toEqual([]);
    expect(acceptProposals.records).toHaveLength(2);
    const [madeRisen, madeEnded] = acceptProposals.records;
    expect(madeRisen).toMatchObject({
      id: expect.any(String),
      price: risen!.price,
      billingCycle: risen!.billingCycle,
      billingFrequency: risen!.billingFrequency,
      status: 'ACTIVE',
      paymentDate: risen!.payments[0].date,
    });
    expect(madeRisen.priceHistory).toEqual({
      totalCount: risen!.priceSteps.length,
      nodes: risen!.priceSteps.map((step) => ({ effectiveFrom: step.effectiveFrom, price: step.price })),
    });
    expect(madeEnded.status).toBe('CANCELLED');

    // The payments found are in the ledger as paid.
    const {
      paymentEntries: { nodes: paymentEntries },
    } = await graphqlData(
      testApp,
      dan.token,
      `query($id: ID!) { paymentEntries(filter: {subscriptionId: $id, status: PAID}) { nodes { dueDate paidAmount { amount currency } status } } }`,
      { id: madeRisen.id },
    );
    expect(paymentEntries.map((entry: { dueDate: string }) => entry.dueDate)).toEqual(
      risen!.payments.map((payment) => payment.date),
    );
    expect(paymentEntries.map((entry: { paidAmount: Money }) => entry.paidAmount)).toEqual(
      risen!.payments.map((payment) => payment.amount),
    );

    // Decided proposals are no longer open (node(id:) finds only open ones), and the same statement proposes
    // them again to no one.
    const { subscriptionProposals } = await graphqlData(testApp, dan.token, `{ subscriptionProposals { id } }`);
    expect(subscriptionProposals.map((proposal: { id: string }) => proposal.id)).not.toContain(risen!.id);
    expect((await graphqlData(testApp, dan.token, NODE, { id: risen!.id })).node).toBeNull();
    const again = await proposalsOf(dan.token, writeStatement(transactions, 'ofx'));
    expect(again.proposals.map((proposal) => proposal.id)).not.toContain(risen!.id);
    expect(truth.length).toBeGreaterThan(0);
  });

  it('never proposes a dismissed series again, and marks one already tracked', async () => {
    const fay = await signUp(testApp, 'Fay');
    const { transactions } = statement(31);
    const file = writeStatement(transactions, 'camt053');
    const [first, second] = (await proposalsOf(fay.token, file)).proposals;
    const { dismissProposals } = await graphqlData(testApp, fay.token, DISMISS, { input: { ids: [first.id] } });
    expect(dismissProposals).toEqual({ dismissedProposalIds: [first.id], userErrors: [] });
    const twice = await graphql(testApp, fay.token, DISMISS, { input: { ids: [first.id] } });
    expect(twice.body.data.dismissProposals).toEqual({
      dismissedProposalIds: null,
      userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
    });
    const again = await proposalsOf(fay.token, file);
    expect(again.proposals.map((proposal) => proposal.id)).not.toContain(first.id);
    expect(again.proposals.map((proposal) => proposal.id)).toContain(second.id);

    // A record of the same payee and currency at another price: tracked, and accepting moves its price.
    const record = await createSubscription(testApp, fay.token, {
      brand_id: second.payee,
      price: '0.50',
      price_type: second.price.currency,
    });
    const tracked = byPayee((await proposalsOf(fay.token, file)).proposals, second.payee)!;
    expect(tracked.trackedSubscriptionId).toBe(toGlobalId('SubscriptionRecord', Number(record.id)));
    const { acceptProposals } = await graphqlData(testApp, fay.token, ACCEPT, { input: { ids: [tracked.id] } });
    expect(acceptProposals.userErrors).toEqual([]);
    expect(acceptProposals.records.map((made: { id: string }) => made.id)).toEqual([tracked.trackedSubscriptionId]);
    expect(acceptProposals.records[0].price).toEqual(tracked.price);
  });
});

describe('the CLI', () => {
  it('detect FILE --user EMAIL prints one line per proposal, the same the API proposes', async () => {
    const gus = await signUp(testApp, 'Gus');
    const folder = mkdtempSync(join(tmpdir(), 'subledger-statement-'));
    const file = join(folder, 'statement.sta');
    writeFileSync(file, writeStatement(statement(41).transactions, 'mt940'));
    const detect = runCli(testApp.database.url, 'detect', file, '--user', gus.email);
    expect(detect.stderr).toBe('');
    expect(detect.status).toBe(0);
    const { subscriptionProposals } = await graphqlData(
      testApp,
      gus.token,
      '{ subscriptionProposals { legacyId payee price { amount currency } nextPaymentDate } }',
    );
    const lines = detect.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(`^\\d+ transactions: ${subscriptionProposals.length} recurring payments proposed$`),
    );
    const listed = lines.slice(0, -1).map((line) => line.split('\t'));
    expect(listed.map(([id, payee, price]) => [Number(id.slice(1)), payee, price]).sort()).toEqual(
      subscriptionProposals
        .map((proposal: Proposal) => [
          proposal.legacyId,
          proposal.payee,
          `${proposal.price.amount} ${proposal.price.currency}`,
        ])
        .sort(),
    );
    for (const [, , , period, next] of listed) {
      expect(period).toMatch(/^every (week|month|year|\d+ (weeks|months))$/);
      expect(next).toMatch(/^next \d{4}-\d{2}-\d{2}$/);
    }
  });
});
