import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import path from 'node:path';

/** Every setting of the service, read from the environment once at start-up. */
export interface Config {
  port: number;
  baseUrl: string;
  /** Unset: the embedded PostgreSQL server under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** API processes sharing the port (node:cluster); 1 runs everything in one process. */
  webConcurrency: number;
  /** Connections to the database kept at most, per process. */
  databasePoolSize: number;
  /** Unset: deliveries are relayed in-process from the database. */
  redisUrl: string | null;
  /** Prefix of every Redis key (queues, rate limits), so several instances can share one Redis. */
  redisPrefix: string;
  /** Days a token lives without use (each use pushes it on); 0: never expires. */
  tokenTtlDays: number;
  /** Memory per process for answers of records kept until their user's data changes; 0 keeps none. */
  answerCacheMb: number;
  /**
   * GraphQL runs only the operations the build registered (the dashboard's), by text or by hash; clients may
   * not register others (automatic persisted queries).
   */
  graphqlPersistedOnly: boolean;
  /** Bearer token /metrics asks for; null: /metrics is open (keep it off the public network). */
  metricsToken: string | null;
  /** Origins browsers may call from; null: any origin. */
  corsOrigins: string[] | null;
  allowSignup: boolean;
  /** Single sign-on over OpenID Connect; null when OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  /** Whether e-mail and password sign in (and sign up); OIDC_ONLY=true turns them off, leaving single sign-on. */
  passwordLogin: boolean;
  /** Requests per minute per token (per address before login); 0 turns the limit off. */
  rateLimitPerMinute: number;
  serviceShortName: string;
  webhookAllowPrivate: boolean;
  /** Whether the server fetches catalogue products' logos (LOGO_FETCH=off: never, so no request leaves for one). */
  logoFetch: boolean;
  /** Allow logo fetches from loopback and private addresses (a local vendor site in tests); off by default. */
  logoAllowPrivate: boolean;
  /** smtp(s)://user:pass@host:port for reminder e-mails; unset: no e-mail channel. */
  smtpUrl: string | null;
  smtpFrom: string;
  /** The key notification targets' URLs are encrypted with (its SHA-256 is the AES-256 key); null: none yet. */
  notifySecretKey: string | null;
  /** Where the hosted notification services' APIs are (a proxy's or a test's fake may stand in). */
  notifyApis: NotifyApis;
  /** How often exchange rates are refreshed from ratesUrl; off: only by `npm run cli -- rates:import`. */
  ratesRefresh: 'off' | 'daily' | 'hourly';
  /** A keyless source of reference rates: the ECB's daily XML or a Frankfurter-compatible JSON API. */
  ratesUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** pretty: one readable line per event (pino-pretty); json: one JSON object per line. */
  logFormat: 'pretty' | 'json';
  nodeEnv: 'development' | 'production' | 'test';
}

export interface OidcConfig {
  /** The provider's issuer URL, whose /.well-known/openid-configuration is read. */
  issuer: string;
  clientId: string;
  /** null: a public client (PKCE alone). */
  clientSecret: string | null;
  /** Space-separated; always includes openid. */
  scopes: string;
  /** Whether a first sign-in with an unknown, verified e-mail creates its account. */
  autoSignup: boolean;
}

export interface NotifyApis {
  telegram: string;
  discord: string;
  pushover: string;
  slack: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const NODE_ENVS = ['development', 'production', 'test'] as const;
const RATES_REFRESHES = ['off', 'daily', 'hourly'] as const;
const LOG_FORMATS = ['pretty', 'json'] as const;
/** The European Central Bank's reference rates of the day, published on working days around 16:00 CET. */
export const ECB_DAILY_RATES = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/**
 * Reads and validates the environment; throws one ConfigError naming every bad variable. `terminal`: whether
 * standard output is a terminal, which makes pretty logs the default.
 */
export function loadConfig(env: Env = process.env, terminal: boolean = process.stdout.isTTY === true): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
      return raw;
    } catch {
      problems.push(
        `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`,
      );
      return null;
    }
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const serviceShortName = read('SERVICE_SHORT_NAME') ?? 'subledger';
  if (!/^[a-z0-9][a-z0-9-]{0,30}$/.test(serviceShortName)) {
    problems.push(`SERVICE_SHORT_NAME must be lower-case letters, digits and dashes (got "${serviceShortName}")`);
  }
  const redisPrefix = read('REDIS_PREFIX') ?? 'subledger';
  const config: Config = {
    port,
    baseUrl: (url('BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(read('DATA_DIR') ?? defaultDataDir({ checkout: runsFromCheckout(), env })),
    // Two at least: start-up migrates on one while it holds the migration lock on another.
    databasePoolSize: integer('DATABASE_POOL_SIZE', 4, 2, 200),
    webConcurrency: integer('WEB_CONCURRENCY', availableParallelism(), 1, 64),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix,
    tokenTtlDays: integer('TOKEN_TTL_DAYS', 30, 0, 3650),
    answerCacheMb: integer('ANSWER_CACHE_MB', 16, 0, 4096),
    graphqlPersistedOnly: boolean('GRAPHQL_PERSISTED_ONLY', false),
    corsOrigins: corsOrigins(read('CORS_ORIGINS'), problems),
    metricsToken: read('METRICS_TOKEN') ?? null,
    allowSignup: boolean('ALLOW_SIGNUP', true),
    oidc: oidcConfig(read, url('OIDC_ISSUER', ['https:', 'http:']), boolean('OIDC_AUTO_SIGNUP', false), problems),
    passwordLogin: !boolean('OIDC_ONLY', false),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', 1000, 0, 1_000_000),
    serviceShortName,
    webhookAllowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', false),
    logoFetch: oneOf('LOGO_FETCH', ['on', 'off'] as const, 'on') === 'on',
    logoAllowPrivate: boolean('LOGO_ALLOW_PRIVATE', false),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: read('SMTP_FROM') ?? 'Subledger <reminders@localhost>',
    notifySecretKey: secretKey(read('NOTIFY_SECRET_KEY'), problems),
    notifyApis: {
      telegram: (url('NOTIFY_TELEGRAM_API', ['http:', 'https:']) ?? 'https://api.telegram.org').replace(/\/+$/, ''),
      discord: (url('NOTIFY_DISCORD_API', ['http:', 'https:']) ?? 'https://discord.com').replace(/\/+$/, ''),
      pushover: (url('NOTIFY_PUSHOVER_API', ['http:', 'https:']) ?? 'https://api.pushover.net').replace(/\/+$/, ''),
      slack: (url('NOTIFY_SLACK_API', ['http:', 'https:']) ?? 'https://hooks.slack.com').replace(/\/+$/, ''),
    },
    ratesRefresh: oneOf('RATES_REFRESH', RATES_REFRESHES, 'daily'),
    ratesUrl: url('RATES_URL', ['http:', 'https:']) ?? ECB_DAILY_RATES,
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: logFormat(read('LOG_FORMAT'), terminal, problems),
    nodeEnv: oneOf('NODE_ENV', NODE_ENVS, 'development'),
  };
  if (!config.passwordLogin && read('OIDC_ISSUER') === undefined)
    problems.push('OIDC_ONLY=true needs single sign-on set up (OIDC_ISSUER)');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** OIDC_*: the issuer and the client Subledger is registered as there, all or none. */
function oidcConfig(
  read: (name: string) => string | undefined,
  issuer: string | null,
  autoSignup: boolean,
  problems: string[],
): OidcConfig | null {
  const clientId = read('OIDC_CLIENT_ID');
  const scopes = (read('OIDC_SCOPES') ?? 'openid email profile').split(/\s+/);
  if (!issuer) {
    // An OIDC_ISSUER that is not a URL has its own problem already.
    if (read('OIDC_ISSUER') === undefined && (clientId || read('OIDC_CLIENT_SECRET')))
      problems.push('OIDC_CLIENT_ID and OIDC_CLIENT_SECRET need OIDC_ISSUER');
    return null;
  }
  if (!clientId) problems.push('OIDC_ISSUER needs OIDC_CLIENT_ID (the client id registered at the provider)');
  if (!scopes.includes('openid')) problems.push(`OIDC_SCOPES must include openid (got "${scopes.join(' ')}")`);
  return {
    issuer,
    clientId: clientId ?? '',
    clientSecret: read('OIDC_CLIENT_SECRET') ?? null,
    scopes: scopes.join(' '),
    autoSignup,
  };
}

/** LOG_FORMAT: pretty or json; unset, pretty when standard output is a terminal and json otherwise. */
function logFormat(raw: string | undefined, terminal: boolean, problems: string[]): Config['logFormat'] {
  if (raw === undefined) return terminal ? 'pretty' : 'json';
  const format = raw.toLowerCase();
  if ((LOG_FORMATS as readonly string[]).includes(format)) return format as Config['logFormat'];
  problems.push(
    `LOG_FORMAT must be pretty (one readable line per event) or json (one JSON object per line) (got "${raw}")`,
  );
  return 'json';
}

/**
 * Where the data lives when DATA_DIR is unset: ./data (from the working directory) when Subledger runs from a
 * checkout of its repository, and the user's data folder when it runs from an installed release, so that
 * `subledger` finds the same data from any folder: $XDG_DATA_HOME/subledger (~/.local/share/subledger when
 * unset) on Linux and other Unixes, ~/Library/Application Support/subledger on macOS, and
 * %LOCALAPPDATA%\subledger on Windows.
 */
export function defaultDataDir(options: {
  checkout: boolean;
  env?: Env;
  platform?: NodeJS.Platform;
  home?: string;
}): string {
  if (options.checkout) return './data';
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? (env.HOME?.trim() || homedir());
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  const absolute = (value: string | undefined) => {
    const trimmed = value?.trim();
    return trimmed && (platform === 'win32' ? path.win32.isAbsolute(trimmed) : path.posix.isAbsolute(trimmed))
      ? trimmed
      : null;
  };
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'subledger');
  if (platform === 'win32') return join(absolute(env.LOCALAPPDATA) ?? join(home, 'AppData', 'Local'), 'subledger');
  // The XDG base directory rules: a relative XDG_DATA_HOME is invalid and ignored.
  return join(absolute(env.XDG_DATA_HOME) ?? join(home, '.local', 'share'), 'subledger');
}

/**
 * Whether this Subledger is a checkout of its repository (a .git or src/ beside its package.json) rather than an
 * installed release, whose package holds neither. The package is the nearest folder up from this file whose
 * package.json names subledger (src/platform/ under ts-jest, dist/src/platform/ when built).
 */
export function isCheckout(packageRoot: string): boolean {
  return existsSync(path.join(packageRoot, '.git')) || existsSync(path.join(packageRoot, 'src'));
}

let checkout: boolean | undefined;

function runsFromCheckout(): boolean {
  if (checkout === undefined) {
    const root = [path.resolve(__dirname, '../..'), path.resolve(__dirname, '../../..')].find((folder) => {
      try {
        return (
          (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: string }).name ===
          'subledger'
        );
      } catch {
        return false;
      }
    });
    // No package.json found (files moved by hand): the old default, beside the working directory.
    checkout = root === undefined || isCheckout(root);
  }
  return checkout;
}

/** NOTIFY_SECRET_KEY: at least 32 characters (e.g. `openssl rand -base64 32`). */
function secretKey(raw: string | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  if (raw.length < 32)
    problems.push('NOTIFY_SECRET_KEY must be at least 32 characters (e.g. the output of `openssl rand -base64 32`)');
  return raw;
}

/** CORS_ORIGINS: comma-separated origins (`https://host[:port]`), or `*` (the default) for any. */
function corsOrigins(raw: string | undefined, problems: string[]): string[] | null {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return null;
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | null;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = null;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin.replace(/\/+$/, '')) {
      problems.push(`CORS_ORIGINS must list origins such as https://app.example.com (got "${origin}")`);
    }
  }
  return origins.map((origin) => origin.replace(/\/+$/, ''));
}
