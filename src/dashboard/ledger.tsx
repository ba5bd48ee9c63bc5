/**
 * The mutations that settle a ledger entry, shared by the screens that mark one (payments, calendar, overview):
 * here, not in a screen, so the first screen does not load another screen's code with them. A .tsx file, as the
 * operations are collected from those (scripts/persisted-operations.mjs, codegen.ts).
 */

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
