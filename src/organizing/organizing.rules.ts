import { isCalendarDate } from '../platform/dates';
import type { FieldErrors } from '../platform/errors';
import { characterCount } from '../platform/objects';
import type { Folder } from './folder.entity';
import type { PaymentMode } from './payment-mode.entity';

/** CSS hex colour, `#rgb` or `#rrggbb`. */
export const COLOR = /^#[0-9A-Fa-f]{3}([0-9A-Fa-f]{3})?$/;
/** The original's payment types (config/table.php subscription.payment_type). */
export const PAYMENT_TYPES = ['PayPal', 'Credit Card', 'Others'] as const;

export function validateFolder(fields: Partial<Folder>): FieldErrors {
  const errors: FieldErrors = {};
  if (fields.color !== undefined && fields.color !== null && !COLOR.test(fields.color))
    errors.color = ['The color must be a hex colour, #rgb or #rrggbb.'];
  if (fields.isDefault !== undefined && fields.isDefault !== 0 && fields.isDefault !== 1)
    errors.is_default = ['The is_default must be 0 or 1.'];
  return errors;
}

export function validatePaymentMode(fields: Partial<PaymentMode>): FieldErrors {
  const errors: FieldErrors = {};
  if (
    fields.paymentType !== undefined &&
    fields.paymentType !== null &&
    !(PAYMENT_TYPES as readonly string[]).includes(fields.paymentType)
  ) {
    errors.payment_type = [`The payment_type must be one of ${PAYMENT_TYPES.join(', ')}.`];
  }
  if (fields.description !== undefined && fields.description !== null && characterCount(fields.description) > 1000)
    errors.description = ['The description must be at most 1000 characters.'];
  if (fields.expiry !== undefined && fields.expiry !== null && !isCalendarDate(fields.expiry))
    errors.expiry = ['The expiry must be a calendar date (YYYY-MM-DD).'];
  return errors;
}
