import type {} from 'pino-http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, asAppError, toErrorBody } from '../src/errors';

/** Errors raised by Express's own body parsers carry a 4xx `status`; they become the taxonomy's codes. */
export function fromParserError(error: unknown): AppError | null {
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
  res.status(appError.httpStatus).json(toErrorBody(appError));
};

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(new AppError('UNKNOWN_ROUTE', `No route for ${req.method} ${req.path}`));
};
