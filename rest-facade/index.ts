import { Router } from 'express';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

import type { Config } from '../src/platform/config';
import type { Services } from '../src/runtime/services';
import { identifyCaller, refuseReadOnlyWrites, requireCaller } from './auth';
import { rateLimit } from './rate-limit';
import { alertRoutes } from './routes/alerts.routes';
import { authRoutes, loginRoute } from './routes/auth.routes';
import { calendarFeedRoutes } from './routes/calendar-feed.routes';
import { catalogueRoutes } from './routes/catalogue.routes';
import { exportRoutes } from './routes/export.routes';
import { inboundWebhookRoutes } from './routes/inbound-webhook.routes';
import { oidcRoutes } from './routes/oidc.routes';
import { organizingRoutes } from './routes/organizing.routes';
import { settingsRoutes } from './routes/settings.routes';
import { readChecksItsCaller, subscriptionRoutes } from './routes/subscriptions.routes';

export interface RestFacadeDeps {
  services: Services;
  config: Config;
  /** null when RATE_LIMIT_PER_MINUTE is 0. */
  requestLimiter: RateLimiterAbstract | null;
}

/** Every REST path of the spec, translated to service calls and back into the documented shapes. */
export function createRestFacade({ services, config, requestLimiter }: RestFacadeDeps): Router {
  const api = Router();
  // The original routes PATCH like PUT on every path that has a PUT.
  api.use((req, _res, next) => {
    if (req.method === 'PATCH') req.method = 'PUT';
    next();
  });
  api.use(identifyCaller(services.auth, readChecksItsCaller));
  if (requestLimiter) api.use(rateLimit(requestLimiter, config.rateLimitPerMinute));
  api.use(loginRoute(services, config));
  // Every other /api/v1 path needs a valid token, and a read-only one reads only.
  api.use(requireCaller, refuseReadOnlyWrites);
  api.use(authRoutes(services, config));
  api.use(subscriptionRoutes(services));
  api.use(alertRoutes(services));
  api.use(catalogueRoutes(services, config));
  api.use(settingsRoutes(services, config));
  api.use(organizingRoutes(services));

  const root = Router();
  root.use('/api/v1', api);
  root.use(inboundWebhookRoutes(services, config));
  root.use(calendarFeedRoutes(services));
  // Single sign-on's browser stops: each asks the provider, so they take the request limit (per address).
  root.use(oidcRoutes(services, config, requestLimiter ? [rateLimit(requestLimiter, config.rateLimitPerMinute)] : []));
  // Downloads take the API's token and request limit.
  root.use(
    '/export',
    identifyCaller(services.auth),
    ...(requestLimiter ? [rateLimit(requestLimiter, config.rateLimitPerMinute)] : []),
    requireCaller,
    exportRoutes(services),
  );
  return root;
}
