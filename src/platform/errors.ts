import {
  ConnectionException,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { GraphQLError } from 'graphql';

/**
 * The one error taxonomy of the service. Services throw AppError; the REST facade maps each code to an HTTP
 * status (rest-facade/http-errors.ts) and GraphQL to an extension code (below), each in one place.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  /** The password was right, but the account has two-factor authentication on and no code came with it. */
  | 'TWO_FACTOR_REQUIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'RATE_LIMITED'
  | 'UNKNOWN_ROUTE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR';

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
    /** Seconds a client should wait (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badInput(message: string, fieldErrors?: FieldErrors): AppError {
    return new AppError('BAD_USER_INPUT', message, fieldErrors);
  }

  static field(field: string, problem: string): AppError {
    return new AppError('BAD_USER_INPUT', problem, { [field]: [problem] });
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }

  /** A read or search that found nothing: a 400 on REST, as the spec has it. */
  static noResults(what: string): AppError {
    return new AppError('NOT_FOUND', `No ${what} found`);
  }

  static unauthenticated(message = 'Unauthenticated'): AppError {
    return new AppError('UNAUTHENTICATED', message);
  }
}

/** Refuses input with the field errors found on it, all at once; nothing when there are none. */
export function refuseFieldErrors(errors: FieldErrors, message = 'The given data was invalid'): void {
  if (Object.keys(errors).length > 0) throw AppError.badInput(message, errors);
}

/** Anything thrown, as an AppError; unknown errors become a bare 500 without their details. */
export function asAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError && error.originalError) return asAppError(error.originalError);
  // Races past a service's own checks end at the database's constraints.
  if (error instanceof UniqueConstraintViolationException) return new AppError('CONFLICT', 'That already exists');
  if (error instanceof ForeignKeyConstraintViolationException)
    return AppError.badInput('A referenced record does not exist');
  if (isLostDatabase(error))
    return new AppError('SERVICE_UNAVAILABLE', 'The database connection was lost; nothing was stored. Try again.');
  return new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}

/** Extensions of a GraphQL error: the taxonomy code plus the field errors. */
export function toGraphQLExtensions(error: AppError): Record<string, unknown> {
  return error.fieldErrors ? { code: error.code, errors: error.fieldErrors } : { code: error.code };
}

/**
 * A connection to PostgreSQL that broke (terminated, reset, refused; SQLSTATE classes 08 and 57P): the
 * transaction was rolled back, so the client may simply try again.
 */
export function isLostDatabase(error: unknown): boolean {
  if (error instanceof ConnectionException) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  // 08P01 is a protocol violation (a NUL in a statement's text), not a lost connection: sending it again fails again.
  if (code === '08P01') return false;
  if (typeof code === 'string' && (/^(08|57P)/.test(code) || code === 'ECONNRESET' || code === 'ECONNREFUSED'))
    return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|terminating connection|Client has encountered a connection error/i.test(message)
  );
}
