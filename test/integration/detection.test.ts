import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { normalisePayee } from '../../src/detection/payee-names';
import type { BankTransaction, StatementFormat } from '../../src/detection/statement';
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

const PROPOSAL_FIELDS = `id payee productId productName price currency billingCycle billingFrequency nextPaymentDate
  ongoing confidence reasons payments { date amount } priceSteps { effectiveFrom price } trackedSubscriptionId`;
const ANALYZE = `mutation ($file: Upload!, $format: StatementFormat, $mapping: StatementMappingInput) {
  analyzeStatement(file: $file, format: $format, mapping: $mapping) {
    needsMapping columns sample transactionCount proposals { ${PROPOSAL_FIELDS} }
  }
}`;

interface Proposal {
  id: number;
  payee: string;
  productId: number | null;
  productName: string | null;
  price: string;
  currency: string;
  billingCycle: number;
  billingFrequency: number;
  nextPaymentDate: string;
  ongoing: boolean;
  confidence: number;
  reasons: string[];
  payments: Array<{ date: string; amount: string }>;
  priceSteps: Array<{ effectiveFrom: string; price: string }>;
  trackedSubscriptionId: number | null;
}

function analyze(token: string, file: Buffer, variables: Record<string, unknown> = {}) {
  return testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .field('operations', JSON.stringify({ query: ANALYZE, variables: { file: null, ...variables } }))
    .field('map', JSON.stringify({ 0: ['variables.file'] }))
    .attach('0', file, 'statement');
}

async function proposalsOf(token: string, file: Buffer, variables: Record<string, unknown> = {}) {
  const response = await analyze(token, file, variables);
  expect(response.body.errors).toBeUndefined();
  return response.body.data.analyzeStatement as {
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

function expectProposalShape(proposal: Proposal): void {
  expect(Object.keys(proposal).sort()).toEqual(
    PROPOSAL_FIELDS.replace(/\{[^}]*\}/g, '')
      .split(/\s+/)
      .filter(Boolean)
      .sort(),
  );
  expect(Number.isInteger(proposal.id)).toBe(true);
  expect(typeof proposal.payee).toBe('string');
  expect(proposal.price).toMatch(/^\d+\.\d{2}$/);
  expect(proposal.currency).toMatch(/^[A-Z]{3}$/);
  expect([2, 3, 4]).toContain(proposal.billingCycle);
  expect(Number.isInteger(proposal.billingFrequency)).toBe(true);
  expect(proposal.nextPaymentDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(typeof proposal.ongoing).toBe('boolean');
  expect(proposal.confidence).toBeGreaterThan(0);
  expect(proposal.confidence).toBeLessThanOrEqual(1);
  expect(proposal.reasons.length).toBeGreaterThan(0);
  expect(proposal.payments.length).toBeGreaterThanOrEqual(2);
  for (const payment of proposal.payments) {
    expect(payment.date <= today()).toBe(true);
    expect(payment.amount).toMatch(/^\d+\.\d{2}$/);
  }
  expect(proposal.priceSteps[proposal.priceSteps.length - 1].price).toBe(proposal.price);
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
          [series.period.cycle, series.period.frequency],
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
    expect(await countOwnedRows(testApp, 'statement_proposals', cara.id)).toBe(0);
    const tooLarge = await analyze(cara.token, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    expect(tooLarge.body.errors[0]).toMatchObject({
      message: 'The statement is over the 10 MB an analysis takes.',
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(await countOwnedRows(testApp, 'statement_proposals', cara.id)).toBe(0);
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
    const refused = await graphql(
      testApp,
      dan.token,
      `mutation { acceptProposals(ids: [${risen!.id}, ${evesOwn.id}]) { id } }`,
    );
    expect(refused.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await countOwnedRows(testApp, 'subscriptions', dan.id)).toBe(0);
    expect(await countOwnedRows(testApp, 'payment_entries', dan.id)).toBe(0);

    const { acceptProposals } = await graphqlData(
      testApp,
      dan.token,
      `mutation { acceptProposals(ids: [${risen!.id}, ${ended!.id}]) { id productName price currency billingCycle billingFrequency status paymentDate priceHistory { effectiveFrom price } } }`,
    );
    expect(acceptProposals).toHaveLength(2);
    const [madeRisen, madeEnded] = acceptProposals;
    expect(madeRisen).toMatchObject({
      price: risen!.price,
      currency: risen!.currency,
      billingCycle: risen!.billingCycle,
      billingFrequency: risen!.billingFrequency,
      status: 1,
      paymentDate: risen!.payments[0].date,
    });
    expect(madeRisen.priceHistory).toEqual(risen!.priceSteps);
    expect(madeEnded.status).toBe(2);

    // The payments found are in the ledger as paid.
    const { paymentEntries } = await graphqlData(
      testApp,
      dan.token,
      `{ paymentEntries(filter: {subscriptionId: ${madeRisen.id}, status: PAID}) { dueDate paidAmount status } }`,
    );
    expect(paymentEntries.map((entry: { dueDate: string }) => entry.dueDate)).toEqual(
      risen!.payments.map((payment) => payment.date),
    );
    expect(paymentEntries.map((entry: { paidAmount: string }) => entry.paidAmount)).toEqual(
      risen!.payments.map((payment) => payment.amount),
    );

    // Decided proposals are no longer open, and the same statement proposes them again to no one.
    const { subscriptionProposals } = await graphqlData(testApp, dan.token, `{ subscriptionProposals { id } }`);
    expect(subscriptionProposals.map((proposal: { id: number }) => proposal.id)).not.toContain(risen!.id);
    const again = await proposalsOf(dan.token, writeStatement(transactions, 'ofx'));
    expect(again.proposals.map((proposal) => proposal.id)).not.toContain(risen!.id);
    expect(truth.length).toBeGreaterThan(0);
  });

  it('never proposes a dismissed series again, and marks one already tracked', async () => {
    const fay = await signUp(testApp, 'Fay');
    const { transactions } = statement(31);
    const file = writeStatement(transactions, 'camt053');
    const [first, second] = (await proposalsOf(fay.token, file)).proposals;
    const { dismissProposals } = await graphqlData(
      testApp,
      fay.token,
      `mutation { dismissProposals(ids: [${first.id}]) }`,
    );
    expect(dismissProposals).toBe(1);
    const again = await proposalsOf(fay.token, file);
    expect(again.proposals.map((proposal) => proposal.id)).not.toContain(first.id);
    expect(again.proposals.map((proposal) => proposal.id)).toContain(second.id);

    // A record of the same payee and currency at another price: tracked, and accepting moves its price.
    const record = await createSubscription(testApp, fay.token, {
      brand_id: second.payee,
      price: '0.50',
      price_type: second.currency,
    });
    const tracked = byPayee((await proposalsOf(fay.token, file)).proposals, second.payee)!;
    expect(tracked.trackedSubscriptionId).toBe(record.id);
    const { acceptProposals } = await graphqlData(
      testApp,
      fay.token,
      `mutation { acceptProposals(ids: [${tracked.id}]) { id price } }`,
    );
    expect(acceptProposals).toEqual([{ id: record.id, price: tracked.price }]);
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
      '{ subscriptionProposals { id payee price currency nextPaymentDate } }',
    );
    const lines = detect.stdout.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(`^\\d+ transactions: ${subscriptionProposals.length} recurring payments proposed$`),
    );
    const listed = lines.slice(0, -1).map((line) => line.split('\t'));
    expect(listed.map(([id, payee, price]) => [Number(id.slice(1)), payee, price]).sort()).toEqual(
      subscriptionProposals
        .map((proposal: Proposal) => [proposal.id, proposal.payee, `${proposal.price} ${proposal.currency}`])
        .sort(),
    );
    for (const [, , , period, next] of listed) {
      expect(period).toMatch(/^every (week|month|year|\d+ (weeks|months))$/);
      expect(next).toMatch(/^next \d{4}-\d{2}-\d{2}$/);
    }
  });
});
