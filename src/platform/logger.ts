import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config';

export type { Logger };

/** `destination`: where lines go (tests read them); standard output otherwise. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'subledger' },
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.params.token', '*.password', '*.token'], remove: true },
    },
    destination,
  );
}

/** The inbound webhook's path carries its secret token: logged, it would hand it to whoever reads the logs. */
export function redactPath(url: string): string {
  return url.replace(/^(\/webhook\/user\/data\/)[^/?#]+/, '$1[redacted]');
}
