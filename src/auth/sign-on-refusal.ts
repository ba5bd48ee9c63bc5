import { AppError, type ErrorCode } from '../platform/errors';

/**
 * Why a single sign-on was refused, by name: a browser is sent to the dashboard with `#sso-error=<reason>`,
 * and the dashboard words it itself (a text in an address could have been written by anyone).
 */
export type SignOnRefusalReason =
  'expired' | 'refused' | 'unverified' | 'no-account' | 'other-identity' | 'disabled' | 'unavailable' | 'not-set-up';

/** A refusal of single sign-on's browser stops: an error of the taxonomy with the reason's name. */
export class SignOnRefusal extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly reason: SignOnRefusalReason,
  ) {
    super(code, message);
  }
}
