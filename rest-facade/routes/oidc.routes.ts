import { type RequestHandler, Router } from 'express';

import { OIDC_CALLBACK_PATH, OIDC_LOGIN_PATH } from '../../src/auth/oidc.service';
import type { Config } from '../../src/platform/config';
import type { Services } from '../../src/runtime/services';

/**
 * Single sign-on's two browser stops (no token: the browser arrives with none). The login sends the browser to
 * the provider; the callback, once the provider's answer is verified, sends it to the dashboard with a
 * one-time code in the fragment (never sent to a server, nor in a Referer), which the dashboard exchanges
 * with `completeSingleSignOn`. A refused answer is a JSON error saying why.
 */
export function oidcRoutes(services: Services, config: Pick<Config, 'baseUrl'>, limits: RequestHandler[]): Router {
  const router = Router();
  router.get(OIDC_LOGIN_PATH, ...limits, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, (await services.oidc.start()).href);
  });
  router.get(OIDC_CALLBACK_PATH, ...limits, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const code = await services.oidc.finish(new URL(req.originalUrl, config.baseUrl).search);
    res.redirect(303, `${config.baseUrl}/#sso-code=${code}`);
  });
  return router;
}
