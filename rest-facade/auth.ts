import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { AuthService } from '../src/auth/auth.service';
import { bearerToken } from '../src/auth/secrets';
import { type Caller, isConfirmed } from '../src/platform/caller';
import { AppError } from '../src/platform/errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the request carried a valid Bearer token. */
    caller?: Caller;
  }
}

/**
 * Resolves the Bearer token, when one is sent, to req.caller, confirmed live. An invalid token is simply no
 * caller. The requests `checkedByTheirRead` names leave a known token's check pending: their route's read runs
 * it in its own statement (a round trip less on the hottest reads) and answers 401 when it fails.
 */
export function identifyCaller(auth: AuthService, checkedByTheirRead?: (req: Request) => boolean): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next();
    const confirmNow = !checkedByTheirRead?.(req);
    auth
      .identify(token)
      .then(async (caller) => {
        if (caller && (!confirmNow || (await isConfirmed(caller)))) req.caller = caller;
      })
      .then(() => next(), next);
  };
}

export const requireCaller: RequestHandler = (req, _res, next) => {
  next(req.caller ? undefined : AppError.unauthenticated());
};

/** Methods that write nothing (GET /auth/logout revokes only the token presented, which a read-only one may). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The one place REST enforces a token's scope: a READ_ONLY token's writes get 403. */
export const refuseReadOnlyWrites: RequestHandler = (req, _res, next) => {
  const refused = req.caller?.readOnly && !READ_METHODS.has(req.method);
  next(refused ? new AppError('FORBIDDEN', 'This token is read-only: it may not write') : undefined);
};

/** The caller of a route behind requireCaller. */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw AppError.unauthenticated();
  return req.caller;
}
