import type { RequestHandler } from 'express';

/**
 * Default pictures, served by the service itself so records always carry a working image URL. A Map: a
 * plain object would answer /static/constructor or /static/__proto__ from its prototype.
 */
const IMAGES = new Map<string, string>(
  Object.entries({
    'avatar.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="#cbd5e1"/>' +
      '<circle cx="32" cy="25" r="11" fill="#f8fafc"/><path d="M12 54c3-11 11-16 20-16s17 5 20 16" fill="#f8fafc"/></svg>',
    'default-product.svg':
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#4f46e5"/>' +
      '<path d="M18 22h28v24H18z" fill="none" stroke="#fff" stroke-width="4"/><path d="M18 30h28" stroke="#fff" stroke-width="4"/></svg>',
  }),
);

export const staticImages: RequestHandler = (req, res, next) => {
  const image = IMAGES.get(req.path.replace(/^\//, ''));
  if (!image) return next();
  res.setHeader('Cache-Control', 'public, max-age=86400');
  res.type('image/svg+xml').send(image);
};
