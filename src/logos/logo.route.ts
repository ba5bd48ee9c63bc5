import type { RequestHandler } from 'express';

import { LOGO_EXTENSION, LOGO_ROUTE } from '../platform/logo-path';
import { HASHED_MAX_AGE } from '../platform/web/dashboard';
import type { LogoService } from './logo.service';
import { LOGO_MEDIA_TYPE } from './logo-image';

/** A logo's file name: its hash and extension (logoPath's). */
const LOGO_FILE = new RegExp(`^/([0-9a-f]{32})\\.${LOGO_EXTENSION}$`);

/**
 * GET /logos/<hash>.webp: a logo's bytes. The URL names the content, so the answer never changes and may be
 * kept a year without asking again; open like /static (an <img> sends no token), and only what was made a
 * logo is kept under such a name. Anything else is the unknown route's 404.
 */
export function logoImages(logos: LogoService): [string, RequestHandler] {
  return [
    LOGO_ROUTE,
    async (req, res, next) => {
      const hash = LOGO_FILE.exec(req.path)?.[1];
      const bytes = hash && (req.method === 'GET' || req.method === 'HEAD') ? await logos.image(hash) : null;
      if (!bytes) return next();
      res.setHeader('Cache-Control', HASHED_MAX_AGE);
      res.type(LOGO_MEDIA_TYPE).send(bytes);
    },
  ];
}
