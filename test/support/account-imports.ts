import type { TestApp } from './test-app';
import { daysFromToday, monthsFromToday } from './test-clock';

/** An account import as a GraphQL client uploads it (graphql-multipart-request-spec). */
const IMPORT = `mutation ($input: ImportSubscriptionsInput!) {
  importSubscriptions(input: $input) {
    report {
      total created refused
      rows { line outcome recordId problems { field messages } }
      webhookEndpoints { id url }
    }
    userErrors { field code message }
  }
}`;

/** Uploads a Subledger account document (any JSON value, or text as it is) for import. */
export function uploadAccount(
  testApp: TestApp,
  token: string,
  document: unknown,
  variables: Record<string, unknown> = {},
) {
  const text = typeof document === 'string' ? document : JSON.stringify(document);
  return testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${token}`)
    .field(
      'operations',
      JSON.stringify({ query: IMPORT, variables: { input: { format: 'SUBLEDGER', file: null, ...variables } } }),
    )
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', Buffer.from(text), 'account.json');
}

/** A record as the account export writes it (the fields an import reads), with `overrides`. */
export function exportedRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    type: 1,
    price: 12.5,
    price_type: 'USD',
    billing_type: 2,
    billing_frequency: 1,
    billing_cycle: 3,
    payment_date: monthsFromToday(1),
    status: 1,
    recurring: 1,
    product_name: 'Imported thing',
    brandname: null,
    brand_id: 1,
    folder_id: 0,
    payment_mode_id: null,
    category_id: null,
    alert_id: 0,
    alert_ids: [],
    tags: [],
    sub_addon: 0,
    sub_id: null,
    created_at: `${daysFromToday(-40)} 10:00:00`,
    timezone: 'UTC',
    price_history: [],
    payments: [],
    sharing: null,
    ...overrides,
  };
}

/** An alert definition as the account export writes it. */
export function exportedAlert(id: number, name: string): Record<string, unknown> {
  return {
    id,
    name,
    timePeriod: 2,
    timeCycle: null,
    time: '09:00',
    timezone: 'UTC',
    condition: 2,
    channel: 2,
    contact: null,
    subjects: 1,
  };
}

/** A payment of 12.50 USD as an account export writes it: due and paid `daysAgo` days before today. */
export function exportedPayment(daysAgo: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const day = daysFromToday(-daysAgo);
  return {
    due_date: day,
    expected_amount: '12.50',
    currency: 'USD',
    status: 'paid',
    paid_amount: '12.50',
    paid_on: day,
    note: null,
    ...overrides,
  };
}
