import type { Caller } from '../caller';
import { AppError } from '../errors';

/** What every resolver receives: the caller from the Bearer token, when there is a valid one. */
export interface GraphQLContext {
  caller: Caller | null;
  /** The client's address, for throttling. */
  address: string;
  /** The client's User-Agent, named as a sign-in's device. */
  userAgent?: string;
}

export function requireCaller(context: GraphQLContext): Caller {
  if (!context.caller) throw AppError.unauthenticated();
  return context.caller;
}
