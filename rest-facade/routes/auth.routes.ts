import { Router } from 'express';

import type { Config } from '../../src/platform/config';
import type { Services } from '../../src/runtime/services';
import { callerOf } from '../auth';
import { parseBody } from '../body';
import { FormReader } from '../form';
import { presentUser } from '../presenters/user.presenter';

/** Operations 1-3. Login is the one /api/v1 path that needs no token (see index.ts). */
export function loginRoute(services: Services, config: Pick<Config, 'baseUrl'>): Router {
  const router = Router();
  router.post('/auth/login', parseBody, async (req, res) => {
    const form = new FormReader(req.body);
    const email = form.requiredText('email', 320);
    const password = form.requiredText('password', 1024);
    // Ours: the second factor of an account with two-factor on; without it such a login is a 401 saying so.
    const code = form.text('code', { max: 64 });
    form.done();
    const session = await services.auth.login(email, password, req.ip ?? 'unknown', {
      code,
      device: req.get('user-agent'),
    });
    res.status(201).json({ user: presentUser(session.user, config.baseUrl), token: session.token });
  });
  return router;
}

export function authRoutes(services: Services, config: Pick<Config, 'baseUrl'>): Router {
  const router = Router();
  router.get('/auth/token', async (req, res) => {
    res.json(presentUser(await services.auth.me(callerOf(req)), config.baseUrl));
  });
  router.get('/auth/logout', async (req, res) => {
    await services.auth.logout(callerOf(req));
    res.json({ status: true, message: 'Successfully logged out' });
  });
  return router;
}
