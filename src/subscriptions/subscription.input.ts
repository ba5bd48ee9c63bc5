import Decimal from 'decimal.js';

import { isCalendarDate, isTimeZone, LAST_DATE, staysInRange } from '../platform/dates';
import type { FieldErrors } from '../platform/errors';
import { characterCount, hasLength } from '../platform/objects';
import { codesOf } from './codes';
import { type FieldRule, RECORD_FIELDS } from './subscription.fields';

/** What a record is made or changed from, whichever way it arrives (REST form, GraphQL, inbound webhook). */
export interface SubscriptionInput {
  /** brand_id: a catalogue product id, or a free-text product name. */
  product: { id: number } | { name: string };
  type: number;
  /** Decimal string. */
  price: string;
  /** ISO 4217 code (price_type; currency_code on update). */
  currency: string;
  billingType: number;
  billingFrequency: number;
  billingCycle: number;
  paymentDate: string;
  status: number;
  recurring: number;
  /** 0 or null: no folder. */
  folderId?: number | null;
  /** 0 or null: no alert. */
  alertId?: number | null;
  categoryId?: number | null;
  paymentModeId?: number | null;
  description?: string | null;
  discountVoucher?: string | null;
  note?: string | null;
  companyName?: string | null;
  /** Tag ids (the caller's) or names (found or created). */
  tags?: string[];
  rating?: number;
  ltdvalPrice?: string | null;
  ltdvalCycle?: number | null;
  ltdvalFrequency?: number | null;
  refundDays?: number | null;
  expiryDate?: string | null;
  contractExpiry?: string | null;
  contractNoticeDays?: number | null;
  timezone?: string;
}

export type SubscriptionPatch = Partial<SubscriptionInput>;

const MAX_AMOUNT = new Decimal('999999999999.99');
/** The largest id a row can have (PostgreSQL integer). */
const MAX_ID = 2_147_483_647;

/** The last refund day (payment_date + refund_days) must be a date the service can store: 9999-12-31 at most. */
export function validateRefundWindow(paymentDate: string, refundDays: number | null | undefined): FieldErrors {
  if (
    refundDays === null ||
    refundDays === undefined ||
    !isCalendarDate(paymentDate) ||
    staysInRange(paymentDate, refundDays)
  )
    return {};
  return { refund_days: [`The refund date (payment_date + refund_days) must be on or before ${LAST_DATE}.`] };
}

/**
 * The rules every record obeys, checked on what is given (a patch checks its own fields only). Ownership
 * of linked rows and known currencies are checked by the service against the database.
 */
export function validateSubscriptionInput(input: SubscriptionPatch): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const field of RECORD_FIELDS) {
    const value = input[field.name];
    if (value === undefined || value === null) continue;
    const problem = ruleProblem(field.rest, field.rule, value);
    if (problem) fail(field.rest, problem);
  }
  if (
    input.product &&
    'id' in input.product &&
    !(Number.isInteger(input.product.id) && input.product.id >= 1 && input.product.id <= MAX_ID)
  ) {
    fail('brand_id', 'The selected brand_id does not exist.');
  }
  if (input.product && 'name' in input.product) {
    const name = input.product.name.trim();
    if (!hasLength(name, 1, 200))
      fail('brand_id', 'The brand_id must be a product id or a product name of 1 to 200 characters.');
  }
  if (input.paymentDate !== undefined && !errors.refund_days)
    Object.assign(errors, validateRefundWindow(input.paymentDate, input.refundDays));
  if (input.tags !== undefined) {
    if (input.tags.length > 50) fail('tags', 'At most 50 tags.');
    if (input.tags.some((tag) => !hasLength(tag, 1, 100))) fail('tags', 'Each tag must be 1 to 100 characters.');
  }
  return errors;
}

/** What is wrong with a given value of a field of this rule, or null. */
function ruleProblem(field: string, rule: FieldRule, value: string | number): string | null {
  switch (rule.kind) {
    case 'code':
      return codesOf(rule.labels).includes(value as number)
        ? null
        : `The ${field} must be one of ${codesOf(rule.labels).join(', ')}.`;
    case 'integer':
      return Number.isInteger(value) && (value as number) >= rule.min && (value as number) <= rule.max
        ? null
        : `The ${field} must be a whole number from ${rule.min} to ${rule.max}.`;
    case 'money':
      return moneyProblem(field, String(value));
    case 'date':
      return isCalendarDate(String(value)) ? null : `The ${field} must be a calendar date (YYYY-MM-DD).`;
    case 'text':
      return characterCount(String(value)) <= rule.max ? null : `The ${field} must be at most ${rule.max} characters.`;
    case 'currency':
      return /^[A-Z]{3}$/.test(String(value)) ? null : `The ${field} must be a 3-letter currency code.`;
    case 'zone':
      return isTimeZone(String(value)) ? null : `The ${field} must be an IANA zone name.`;
  }
}

/** What is wrong with a money amount (a decimal string of at least 0, two decimals at most), or null. */
export function moneyProblem(field: string, value: string): string | null {
  let parsed: Decimal | null;
  try {
    parsed = /^\d+(\.\d+)?$/.test(value) ? new Decimal(value) : null;
  } catch {
    parsed = null;
  }
  if (!parsed || parsed.isNegative() || parsed.greaterThan(MAX_AMOUNT))
    return `The ${field} must be a number of at least 0.`;
  return parsed.decimalPlaces() > 2 ? `The ${field} may have at most 2 decimals.` : null;
}
