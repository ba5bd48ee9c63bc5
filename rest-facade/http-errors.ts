import type { ErrorRequestHandler, RequestHandler } from 'express';
import type {} from 'pino-http';

import { AppError, asAppError, type ErrorCode, type FieldErrors } from '../src/platform/errors';

// The spec answers 400 for a refused operation and for an unknown (or foreign) id alike.
const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  NOT_FOUND: 400,
  CONFLICT: 400,
  // The original answers 409 when a row that records use is deleted.
  IN_USE: 409,
  // An Idempotency-Key sent again with another request: the request is well-formed but cannot be processed.
  IDEMPOTENCY_KEY_REUSED: 422,
  UNAUTHENTICATED: 401,
  // The original's clients know 401 on login as "not signed in"; the message names the missing code.
  TWO_FACTOR_REQUIRED: 401,
  FORBIDDEN: 403,
  UNKNOWN_ROUTE: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** The HTTP status of an error of the taxonomy. */
export function httpStatusOf(error: AppError): number {
  return HTTP_STATUS[error.code];
}

/** The JSON body of every REST error. */
export interface ErrorBody {
  status: false;
  message: string;
  errors?: FieldErrors;
}

export function toErrorBody(error: AppError): ErrorBody {
  return error.fieldErrors
    ? { status: false, message: error.message, errors: error.fieldErrors }
    : { status: false, message: error.message };
}

/** Errors raised by Express's own body parsers carry a 4xx `status`; they become the taxonomy's codes. */
export function fromParserError(error: unknown): AppError | null {
  // Our own refusal thrown inside a parser (the duplicate-key check) keeps its fields.
  if (error instanceof AppError) return error;
  const status = (error as { status?: unknown; expose?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body too large');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request encoding');
  return AppError.badInput('Malformed request body: not valid JSON, form or multipart data');
}

/** Every error leaves as JSON `{status: false, message, errors?}`: never HTML, never a stack trace. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const appError = fromParserError(error) ?? asAppError(error);
  if (appError.code === 'INTERNAL_SERVER_ERROR') req.log?.error({ err: error }, 'unexpected error');
  if (appError.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (res.headersSent) return;
  res.status(httpStatusOf(appError)).json(toErrorBody(appError));
};

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(new AppError('UNKNOWN_ROUTE', `No route for ${req.method} ${req.path}`));
};

/**
 * Requests node:http refuses before Express sees them (headers over 16 KB, broken HTTP) get a JSON answer
 * too; node's own answer to them is a bare status line.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason] = tooLarge ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const body = JSON.stringify({
    status: false,
    message: tooLarge ? 'Request headers too large (at most 16 KB)' : 'Malformed HTTP request',
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
