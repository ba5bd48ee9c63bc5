import { availableParallelism } from 'node:os';
import path from 'node:path';

import { ConfigError, loadConfig } from '../../src/platform/config';

describe('loadConfig', () => {
  it('gives every setting a working default with nothing set', () => {
    expect(loadConfig({}, false)).toEqual({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      databaseUrl: null,
      dataDir: path.resolve('./data'),
      databasePoolSize: 4,
      webConcurrency: availableParallelism(),
      redisUrl: null,
      redisPrefix: 'subledger',
      tokenTtlDays: 30,
      answerCacheMb: 16,
      graphqlPersistedOnly: false,
      corsOrigins: null,
      metricsToken: null,
      allowSignup: true,
      oidc: null,
      passwordLogin: true,
      rateLimitPerMinute: 1000,
      serviceShortName: 'subledger',
      webhookAllowPrivate: false,
      logoFetch: true,
      logoAllowPrivate: false,
      smtpUrl: null,
      smtpFrom: 'Subledger <reminders@localhost>',
      notifySecretKey: null,
      notifyApis: {
        telegram: 'https://api.telegram.org',
        discord: 'https://discord.com',
        pushover: 'https://api.pushover.net',
        slack: 'https://hooks.slack.com',
      },
      ratesRefresh: 'daily',
      ratesUrl: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
      logLevel: 'info',
      logFormat: 'json',
      nodeEnv: 'development',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      BASE_URL: 'https://subs.example.com/',
      DATABASE_URL: 'postgresql://u@db:5432/subs',
      DATA_DIR: '/var/lib/subledger',
      WEB_CONCURRENCY: '3',
      REDIS_URL: 'redis://cache:6379',
      TOKEN_TTL_DAYS: '0',
      GRAPHQL_PERSISTED_ONLY: 'true',
      CORS_ORIGINS: 'https://a.example.com, http://localhost:5173',
      ALLOW_SIGNUP: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      SERVICE_SHORT_NAME: 'svc',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NOTIFY_SECRET_KEY: 'k'.repeat(32),
      NOTIFY_TELEGRAM_API: 'http://telegram-proxy.local/',
      RATES_REFRESH: 'off',
      RATES_URL: 'https://api.frankfurter.app/latest?base=USD',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
    });
    expect(config).toMatchObject({
      port: 8080,
      baseUrl: 'https://subs.example.com',
      databaseUrl: 'postgresql://u@db:5432/subs',
      dataDir: '/var/lib/subledger',
      webConcurrency: 3,
      redisUrl: 'redis://cache:6379',
      tokenTtlDays: 0,
      graphqlPersistedOnly: true,
      corsOrigins: ['https://a.example.com', 'http://localhost:5173'],
      allowSignup: false,
      rateLimitPerMinute: 0,
      serviceShortName: 'svc',
      webhookAllowPrivate: true,
      notifySecretKey: 'k'.repeat(32),
      notifyApis: { telegram: 'http://telegram-proxy.local', discord: 'https://discord.com' },
      ratesRefresh: 'off',
      ratesUrl: 'https://api.frankfurter.app/latest?base=USD',
      logLevel: 'debug',
      nodeEnv: 'production',
    });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        WEB_CONCURRENCY: '0',
        DATABASE_POOL_SIZE: '1',
        TOKEN_TTL_DAYS: '-1',
        CORS_ORIGINS: 'https://a.example.com/path',
        ALLOW_SIGNUP: 'maybe',
        LOG_LEVEL: 'loud',
        SERVICE_SHORT_NAME: 'Bad Name',
        NOTIFY_SECRET_KEY: 'too short',
        NOTIFY_SLACK_API: 'slack.example.com',
        RATES_REFRESH: 'weekly',
        LOGO_FETCH: 'sometimes',
        LOG_FORMAT: 'xml',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'WEB_CONCURRENCY',
      'DATABASE_POOL_SIZE',
      'TOKEN_TTL_DAYS',
      'CORS_ORIGINS',
      'ALLOW_SIGNUP',
      'LOG_LEVEL',
      'SERVICE_SHORT_NAME',
      'NOTIFY_SECRET_KEY',
      'NOTIFY_SLACK_API',
      'RATES_REFRESH',
      'LOGO_FETCH',
      'LOG_FORMAT',
    ]) {
      expect(problems).toContain(name);
    }
  });

  it('reads single sign-on: the issuer and client, scopes with a default, auto sign-up and OIDC_ONLY', () => {
    const issuer = 'https://auth.example.com/application/o/subledger/';
    expect(loadConfig({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'subledger' })).toMatchObject({
      oidc: { issuer, clientId: 'subledger', clientSecret: null, scopes: 'openid email profile', autoSignup: false },
      passwordLogin: true,
    });
    const config = loadConfig({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'subledger',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_SCOPES: ' openid  email ',
      OIDC_AUTO_SIGNUP: 'true',
      OIDC_ONLY: 'true',
    });
    expect(config).toMatchObject({
      oidc: { issuer, clientId: 'subledger', clientSecret: 's3cret', scopes: 'openid email', autoSignup: true },
      passwordLogin: false,
    });
  });

  it('refuses single-sign-on settings that cannot work', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    expect(problems({ OIDC_ONLY: 'true' })).toEqual(['OIDC_ONLY=true needs single sign-on set up (OIDC_ISSUER)']);
    expect(problems({ OIDC_CLIENT_ID: 'subledger' })).toEqual([
      'OIDC_CLIENT_ID and OIDC_CLIENT_SECRET need OIDC_ISSUER',
    ]);
    expect(problems({ OIDC_ISSUER: 'https://auth.example.com' })).toEqual([
      'OIDC_ISSUER needs OIDC_CLIENT_ID (the client id registered at the provider)',
    ]);
    expect(problems({ OIDC_ISSUER: 'auth.example.com', OIDC_CLIENT_ID: 'x', OIDC_AUTO_SIGNUP: 'sometimes' })).toEqual([
      'OIDC_ISSUER must be a URL starting with https:// or http:// (got "auth.example.com")',
      'OIDC_AUTO_SIGNUP must be true or false (got "sometimes")',
    ]);
    expect(
      problems({ OIDC_ISSUER: 'https://auth.example.com', OIDC_CLIENT_ID: 'x', OIDC_SCOPES: 'email profile' }),
    ).toEqual(['OIDC_SCOPES must include openid (got "email profile")']);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: ' ' })).toMatchObject({ databaseUrl: null, redisUrl: null });
  });
});
