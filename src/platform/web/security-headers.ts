import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of every answer: the dashboard, GraphiQL and the API reference load scripts,
 * styles, images, fonts and connections from this origin only, and no script runs inline. Inline styles
 * stay allowed: GraphiQL and the API reference set theirs from their own scripts.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // data: for images the pages make themselves (an enrolment's QR code, icons inlined by the libraries).
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
};

/**
 * Helmet's headers on every answer, with three choices of our own. No Strict-Transport-Security: TLS ends at
 * the operator's proxy, which knows whether the host and its subdomains are HTTPS-only. No
 * Cross-Origin-Resource-Policy: clients on other origins (the original service's browser extension) show
 * the product images this server hosts. And no `upgrade-insecure-requests`: an instance on a LAN is served over
 * plain HTTP, where it would turn every same-origin request into one that fails.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    strictTransportSecurity: false,
    crossOriginResourcePolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });
}
