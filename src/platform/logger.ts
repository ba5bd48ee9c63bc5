import pino, { type DestinationStream, type Logger } from 'pino';

import type { Config } from './config';

export type { Logger };

/**
 * `destination`: where lines go (tests read them, as JSON); otherwise standard output, as JSON or, with
 * logFormat pretty, one readable line per event.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'subledger' },
      // A request's URL, query and route parameters are redacted by its serializer (redactRequest below).
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'], remove: true },
    },
    destination ?? (config.logFormat === 'pretty' ? prettyOutput() : undefined),
  );
}

interface RequestLine {
  req?: { id?: unknown; method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/**
 * Standard output through pino-pretty (loaded only here, so JSON logs never load it): time, level and message
 * on one line with the other fields after it; a request's line is `GET /path 200 3ms` and its id. Formatted
 * in this process and written synchronously, so no line is lost to an exit.
 */
function prettyOutput(): DestinationStream {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when pretty logs are chosen
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,req,res,responseTime',
    messageFormat: (log, messageKey) => {
      const { req, res, responseTime } = log as RequestLine;
      const message = String(log[messageKey] ?? '');
      if (!req?.method || !res) return message;
      return `${req.method} ${req.url ?? ''} ${res.statusCode ?? ''} ${responseTime ?? '?'}ms (${String(req.id ?? '')})${message === 'request completed' ? '' : ` ${message}`}`;
    },
  });
  return { write: (line: string) => void process.stdout.write(format(line)) };
}

/*
 * Every place a request carries a secret in its URL, which the request log must not keep (it would hand the
 * secret to whoever reads the logs):
 * - the path segment of a calendar feed's token (`/calendar/<token>.ics`: calendar apps send no other
 *   credential) and of an inbound webhook's (`/webhook/user/data/<token>`), however the path is cased or
 *   slashed (Express routes it all the same) and whether or not a route took it;
 * - on any path, the query parameters GraphQL reads over GET (`query`, `variables`, `extensions`: a `login`
 *   or `signUp` password, a `joinHousehold` invitation code, which Apollo refuses over GET after the request is
 *   logged) and the names clients put credentials under (`?token=`, `?access_token=`, `?code=`…);
 * - the route parameters of those names (the `:token` of the two paths above).
 * A new secret-bearing path or parameter is added here; the log keeps the rest of the URL, so the route shows.
 */
const SECRET_SEGMENT = /^(\/+(?:calendar|webhook\/+user\/+data)\/+)[^/?#]*?(\.ics)?(?=[/?#]|$)/i;
const SECRET_PARAMETERS = new Set([
  'query',
  'variables',
  'extensions',
  'token',
  'access_token',
  'api_token',
  'api_key',
  'key',
  'secret',
  'password',
  'code',
]);
const REDACTED = '[redacted]';

const isSecretName = (name: string) => SECRET_PARAMETERS.has(name.toLowerCase());

/** A request URL (path and query) without its secrets: `/calendar/[redacted].ics`, `/graphql?query=[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(SECRET_SEGMENT, `$1${REDACTED}$2`);
  if (at < 0) return path;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      // The name as the query parser reads it (percent-decoded, + as space), so no spelling slips past.
      const [name] = new URLSearchParams(pair).keys();
      return name !== undefined && isSecretName(name) ? `${pair.split('=')[0]}=${REDACTED}` : pair;
    });
  return `${path}?${pairs.join('&')}`;
}

const redactedEntries = (values: unknown) =>
  values && typeof values === 'object'
    ? Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isSecretName(name) ? REDACTED : value]))
    : values;

/** The request as the request log writes it (pino-http's `req` serializer): its URL, query and route parameters without their secrets. */
export function redactRequest<T extends { url?: string; query?: unknown; params?: unknown }>(req: T): T {
  return Object.assign(req, {
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    query: redactedEntries(req.query),
    params: redactedEntries(req.params),
  });
}

const REQUEST_LOGGER = Symbol('request logger');

type LoggedRequest = { id?: unknown; [REQUEST_LOGGER]?: Logger };

/**
 * Gives every request of `requests` (Express's request prototype) a `log`: a child logger bound to the
 * request's id, made when first used. Below info only errors use it, and a child per request cost allocations
 * that nearly every request threw away.
 */
export function requestLoggersOnDemand(requests: object, logger: Logger): void {
  Object.defineProperty(requests, 'log', {
    configurable: true,
    get(this: LoggedRequest) {
      return (this[REQUEST_LOGGER] ??= logger.child({ reqId: this.id }));
    },
    set(this: LoggedRequest, value: Logger) {
      this[REQUEST_LOGGER] = value;
    },
  });
}
