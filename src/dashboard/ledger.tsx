/**
 * The ledger's operations shared by screens (payments, calendar, overview): its entries, and the mutations that
 * settle one. Here, not in a screen, so that no screen loads another screen's code with them. A .tsx file, as
 * the operations are collected from those (scripts/persisted-operations.mjs, codegen.ts).
 */
import { allNodes, gql } from './api';
import type { PaymentEntriesQuery, PaymentEntriesQueryVariables, PaymentEntryFilter } from './graphql.generated';

/** A ledger entry marked paid, or skipped. */
export const PAID = /* GraphQL */ `
  mutation MarkPaymentPaid($input: MarkPaidInput!) {
    markPaid(input: $input) {
      paymentEntry {
        id
      }
    }
  }
`;
export const SKIP = /* GraphQL */ `
  mutation MarkPaymentSkipped($input: MarkSkippedInput!) {
    markSkipped(input: $input) {
      paymentEntry {
        id
      }
    }
  }
`;

/** The ledger's entries (a month's, a record's, a household's), a page after another. */
const ENTRIES = /* GraphQL */ `
  query PaymentEntries($filter: PaymentEntryFilter, $after: String) {
    paymentEntries(filter: $filter, first: 100, after: $after) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        subscriptionId
        productName
        dueDate
        expectedAmount {
          amount
          currency
        }
        status
        paidAmount {
          amount
          currency
        }
        paidAt
        note
      }
    }
  }
`;

/** Every entry of the ledger the filter selects, page after page. */
export function ledgerEntries(filter: PaymentEntryFilter): Promise<PaymentEntriesQuery['paymentEntries']['nodes']> {
  return allNodes(
    async (after) =>
      (await gql<PaymentEntriesQuery, PaymentEntriesQueryVariables>(ENTRIES, { filter, after })).paymentEntries,
  );
}
