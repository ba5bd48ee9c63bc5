import type {} from 'pino-http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, asAppError, toErrorBody } from '../src/platform/errors';

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
  res.status(appError.httpStatus).json(toErrorBody(appError));
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
  const body = JSON.stringify({ status: false, message: tooLarge ? 'Request headers too large (at most 16 KB)' : 'Malformed HTTP request' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
