import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import type { Config } from './config';
import type { LimiterStores } from './ops/limiters';

/** The domain services, built once per process; the REST facade and GraphQL resolvers both call these. */
export interface Services {
  auth: AuthService;
}

export function createServices(orm: MikroORM<PostgreSqlDriver>, config: Config, stores: LimiterStores): Services {
  return {
    auth: new AuthService(orm, config, new LoginThrottle(stores)),
  };
}
