import { type Request, type RequestHandler, Router } from 'express';

import { OIDC_CALLBACK_PATH, OIDC_LOGIN_PATH } from '../../src/auth/oidc.service';
import { SignOnRefusal } from '../../src/auth/sign-on-refusal';
import type { Config } from '../../src/platform/config';
import type { Services } from '../../src/runtime/services';

/**
 * Single sign-on's two browser stops (no token: the browser arrives with none). The login sends the browser to
 * the provider; the callback, once the provider's answer is verified, sends it to the dashboard with a
 * one-time code in the fragment (never sent to a server, nor in a Referer), which the dashboard exchanges
 * with `completeSingleSignOn`. A refusal is a JSON error saying why, except for a person's browser (which asks
 * for HTML first): it goes to the dashboard with `#sso-error=<reason>`, which the sign-in screen words.
 */
export function oidcRoutes(services: Services, config: Pick<Config, 'baseUrl'>, limits: RequestHandler[]): Router {
  /** A stop that sends the browser on to where `next` says. */
  const stop =
    (next: (req: Request) => Promise<string>): RequestHandler =>
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      let to: string;
      try {
        to = await next(req);
      } catch (error) {
        if (!(error instanceof SignOnRefusal) || req.accepts(['json', 'html']) !== 'html') throw error;
        to = `${config.baseUrl}/#sso-error=${error.reason}`;
      }
      // Without the "Redirecting to …" body Express would write: the answer is the Location alone.
      res.status(303).location(to).end();
    };
  const router = Router();
  router.get(
    OIDC_LOGIN_PATH,
    ...limits,
    stop(async () => (await services.oidc.start()).href),
  );
  router.get(
    OIDC_CALLBACK_PATH,
    ...limits,
    stop(async (req) => {
      const code = await services.oidc.finish(new URL(req.originalUrl, config.baseUrl).search);
      return `${config.baseUrl}/#sso-code=${code}`;
    }),
  );
  return router;
}
