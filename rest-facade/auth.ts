import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { AuthService } from '../src/auth/auth.service';
import { bearerToken } from '../src/auth/secrets';
import type { Caller } from '../src/platform/caller';
import { AppError } from '../src/platform/errors';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the request carried a valid Bearer token. */
    caller?: Caller;
  }
}

/** Resolves the Bearer token, when one is sent, to req.caller. An invalid token is simply no caller. */
export function identifyCaller(auth: AuthService): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next();
    auth.authenticate(token).then((caller) => {
      if (caller) req.caller = caller;
      next();
    }, next);
  };
}

export const requireCaller: RequestHandler = (req, _res, next) => {
  next(req.caller ? undefined : AppError.unauthenticated());
};

/** The caller of a route behind requireCaller. */
export function callerOf(req: Request): Caller {
  if (!req.caller) throw AppError.unauthenticated();
  return req.caller;
}
