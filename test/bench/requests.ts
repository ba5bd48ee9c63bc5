/** The requests the bench sends, shared by its scenarios. */

/** One request as the load generator sends it. */
export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export const LIST_PATH = '/api/v1/subscriptions?length=100&sort=payment_date:asc';
export const UPCOMING_PATH = '/api/v1/subscriptions/upcoming?days=30';

/** The GraphQL page: 15 fields with nested product and folder. */
export const GRAPHQL_PAGE =
  '{ subscriptions(first: 100) { totalCount edges { node { id productName brandName price { amount currency } basePrice { amount currency } paymentDate nextPaymentDate status billingCycle type timezone product { name } folder { name } } } } }';

export const GRAPHQL_SPENDING =
  '{ spendingSummary(groupBy: CATEGORY) { monthlyTotal { amount currency } groups { key monthlyTotal { amount currency } } } }';

export const CREATE_FORM = new URLSearchParams({
  brand_id: '12',
  type: '1',
  price: '9.99',
  price_type: 'USD',
  billing_type: '2',
  billing_frequency: '1',
  billing_cycle: '3',
  payment_date: '2026-06-01',
  status: '1',
  recurring: '1',
}).toString();
