import { characterCount, hasLength } from '../platform/objects';
import Decimal from 'decimal.js';
import type { FieldErrors } from '../platform/errors';
import { BILLING_TYPE_LABELS, codesOf, CYCLE_LABELS, MAX_RATING, RECURRING_LABELS, STATUS_LABELS, TYPE_LABELS } from './codes';
import { isCalendarDate, isTimeZone, LAST_DATE, staysInRange } from '../platform/dates';

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
  timezone?: string;
}

export type SubscriptionPatch = Partial<SubscriptionInput>;

const MAX_AMOUNT = new Decimal('999999999999.99');
/** The longest refund window, in days. */
export const MAX_REFUND_DAYS = 3650;
/** The largest id a row can have (PostgreSQL integer). */
const MAX_ID = 2_147_483_647;

/** The last refund day (payment_date + refund_days) must be a date the service can store: 9999-12-31 at most. */
export function validateRefundWindow(paymentDate: string, refundDays: number | null | undefined): FieldErrors {
  if (refundDays === null || refundDays === undefined || !isCalendarDate(paymentDate) || staysInRange(paymentDate, refundDays)) return {};
  return { refund_days: [`The refund date (payment_date + refund_days) must be on or before ${LAST_DATE}.`] };
}

/**
 * The rules every record obeys, checked on what is given (a patch checks its own fields only). Ownership
 * of linked rows and known currencies are checked by the service against the database.
 */
export function validateSubscriptionInput(input: SubscriptionPatch): FieldErrors {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const code = (field: string, value: number | null | undefined, labels: Record<number, string>) => {
    if (value !== undefined && value !== null && !codesOf(labels).includes(value)) {
      fail(field, `The ${field} must be one of ${codesOf(labels).join(', ')}.`);
    }
  };
  const range = (field: string, value: number | null | undefined, min: number, max: number) => {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < min || value > max)) {
      fail(field, `The ${field} must be a whole number from ${min} to ${max}.`);
    }
  };
  const amount = (field: string, value: string | null | undefined) => {
    if (value === undefined || value === null) return;
    let parsed: Decimal | null;
    try {
      parsed = /^\d+(\.\d+)?$/.test(value) ? new Decimal(value) : null;
    } catch {
      parsed = null;
    }
    if (!parsed || parsed.isNegative() || parsed.greaterThan(MAX_AMOUNT)) fail(field, `The ${field} must be a number of at least 0.`);
    else if (parsed.decimalPlaces() > 2) fail(field, `The ${field} may have at most 2 decimals.`);
  };
  const date = (field: string, value: string | null | undefined) => {
    if (value !== undefined && value !== null && !isCalendarDate(value)) fail(field, `The ${field} must be a calendar date (YYYY-MM-DD).`);
  };
  const text = (field: string, value: string | null | undefined, max: number) => {
    if (value !== undefined && value !== null && characterCount(value) > max) fail(field, `The ${field} must be at most ${max} characters.`);
  };

  if (input.product && 'id' in input.product && !(Number.isInteger(input.product.id) && input.product.id >= 1 && input.product.id <= MAX_ID)) {
    fail('brand_id', 'The selected brand_id does not exist.');
  }
  if (input.product && 'name' in input.product) {
    const name = input.product.name.trim();
    if (!hasLength(name, 1, 200)) fail('brand_id', 'The brand_id must be a product id or a product name of 1 to 200 characters.');
  }
  code('type', input.type, TYPE_LABELS);
  amount('price', input.price);
  if (input.currency !== undefined && !/^[A-Z]{3}$/.test(input.currency)) fail('price_type', 'The price_type must be a 3-letter currency code.');
  code('billing_type', input.billingType, BILLING_TYPE_LABELS);
  range('billing_frequency', input.billingFrequency, 1, 365);
  code('billing_cycle', input.billingCycle, CYCLE_LABELS);
  date('payment_date', input.paymentDate);
  code('status', input.status, STATUS_LABELS);
  code('recurring', input.recurring, RECURRING_LABELS);
  range('rating', input.rating, 0, MAX_RATING);
  amount('ltdval_price', input.ltdvalPrice);
  code('ltdval_cycle', input.ltdvalCycle, CYCLE_LABELS);
  range('ltdval_frequency', input.ltdvalFrequency, 1, 365);
  range('refund_days', input.refundDays, 0, MAX_REFUND_DAYS);
  date('expiry_date', input.expiryDate);
  date('contract_expiry', input.contractExpiry);
  if (input.paymentDate !== undefined && !errors.refund_days) Object.assign(errors, validateRefundWindow(input.paymentDate, input.refundDays));
  text('description', input.description, 5000);
  text('note', input.note, 5000);
  text('discount_voucher', input.discountVoucher, 200);
  text('company_name', input.companyName, 200);
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) fail('timezone', 'The timezone must be an IANA zone name.');
  if (input.tags !== undefined) {
    if (input.tags.length > 50) fail('tags', 'At most 50 tags.');
    if (input.tags.some((tag) => !hasLength(tag, 1, 100))) fail('tags', 'Each tag must be 1 to 100 characters.');
  }
  return errors;
}
