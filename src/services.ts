import type { MikroORM } from '@mikro-orm/core';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { AuthService } from './auth/auth.service';
import { LoginThrottle } from './auth/login-throttle';
import type { Config } from './config';
import type { LimiterStores } from './ops/limiters';
import { SubscriptionService } from './subscriptions/subscription.service';

/** The domain services, built once per process; the REST facade and GraphQL resolvers both call these. */
export interface Services {
  auth: AuthService;
  subscriptions: SubscriptionService;
}

export function createServices(orm: MikroORM<PostgreSqlDriver>, config: Config, stores: LimiterStores): Services {
  return {
    auth: new AuthService(orm, config, new LoginThrottle(stores)),
    subscriptions: new SubscriptionService(orm, `${config.baseUrl}/static/default-product.svg`),
  };
}
