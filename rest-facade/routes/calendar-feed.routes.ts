import { Router } from 'express';

import { AppError } from '../../src/platform/errors';
import type { Services } from '../../src/runtime/services';
import { toErrorBody } from '../http-errors';

/**
 * GET /calendar/<token>.ics: a calendar feed, opened by the token in its URL alone (calendar apps send no
 * other credentials). Calendar apps poll: the ETag and Last-Modified both name the owner's data version, so
 * an unchanged feed answers 304 to either without being made again, and a changed one to neither.
 */
export function calendarFeedRoutes(services: Services): Router {
  const router = Router();
  router.get('/calendar/:token.ics', async (req, res) => {
    const feed = await services.calendarFeeds.read(String(req.params.token));
    // Not the original's 400 for an unknown id: calendar apps take 404 as "this feed is gone".
    if (!feed) {
      res.status(404).json(toErrorBody(AppError.notFound('Calendar feed')));
      return;
    }
    res.setHeader('ETag', feed.etag);
    if (feed.lastModified) res.setHeader('Last-Modified', feed.lastModified.toUTCString());
    res.setHeader('Cache-Control', 'private, no-cache');
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('text/calendar; charset=utf-8').send(await feed.text());
  });
  return router;
}
