import type { Caller } from '../auth/caller';
import { AppError } from '../errors';
import type { Loaders } from './loaders';

/** What every resolver receives: the caller from the Bearer token, when there is a valid one. */
export interface GraphQLContext {
  caller: Caller | null;
  /** The client's address, for throttling. */
  address: string;
  loaders: Loaders;
}

export function requireCaller(context: GraphQLContext): Caller {
  if (!context.caller) throw AppError.unauthenticated();
  return context.caller;
}
