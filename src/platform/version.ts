import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Subledger's version, from its package.json (two folders up from src/platform/, three from dist/src/platform/). */
function readVersion(): string {
  for (const folder of [path.resolve(__dirname, '../..'), path.resolve(__dirname, '../../..')]) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'subledger' && manifest.version) return manifest.version;
    } catch {
      // Not this folder.
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
/** What outbound deliveries send as their user-agent, as the original sends its name and version. */
export const USER_AGENT = `Subledger/${VERSION}`;
