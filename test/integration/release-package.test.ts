import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { embeddedServerProcesses, isAlive, root } from '../support/service-process';
import { MINIMAL } from '../support/subscriptions';
import { clockEnvironment } from '../support/test-clock';
import { freePort, until } from '../support/wait';

/**
 * The release as people install it: `npm pack` of this checkout, installed with `npm install --omit=dev` in an
 * empty folder (from npm's cache, which this checkout's install filled), then run with `subledger` alone: no
 * compiler, bundler or development dependency, data in the user's data folder, stopped by SIGTERM.
 */
const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

let folder: string;
let prefix: string;
let bin: string;
let dataDir: string;
let server: { child: ChildProcess; output: () => string; exited: Promise<number | null>; url: string } | null = null;

/** The names of the packages installed anywhere under `modules` (nested node_modules included). */
function installedPackages(modules: string): Set<string> {
  const names = new Set<string>();
  const visit = (folder: string, scope = '') => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const at = path.join(folder, entry.name);
      if (!scope && entry.name.startsWith('@')) {
        visit(at, entry.name);
        continue;
      }
      names.add(scope ? `${scope}/${entry.name}` : entry.name);
      if (existsSync(path.join(at, 'node_modules'))) visit(path.join(at, 'node_modules'));
    }
  };
  visit(modules);
  return names;
}

/** Packages only development needs: every copy of them in this checkout's lock file is marked dev. */
function developmentOnlyPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const dev = new Set<string>();
  const other = new Set<string>();
  for (const [at, entry] of Object.entries(lock.packages)) {
    if (!at) continue;
    const name = at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length);
    (entry.dev ? dev : other).add(name);
  }
  return new Set([...dev].filter((name) => !other.has(name)));
}

/** The release's command in its environment: nothing of the test's but PATH and the clock. */
function subledger(args: string[]) {
  return run(bin, args, { cwd: prefix, env: environment(), maxBuffer: 16 * 1024 * 1024 });
}

function environment(port?: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: path.join(folder, 'home'),
    // No DATA_DIR: an installed release keeps its data in the user's data folder.
    XDG_DATA_HOME: path.join(folder, 'xdg'),
    RATES_REFRESH: 'off',
    LOG_LEVEL: 'warn',
    ...clockEnvironment(),
    ...(port ? { PORT: String(port) } : {}),
  };
}

beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), 'subledger-release-'));
  // The embedded PostgreSQL runs as another account when the tests run as root: it must pass through.
  chmodSync(folder, 0o755);
  prefix = path.join(folder, 'installed');
  mkdirSync(prefix);
  mkdirSync(path.join(folder, 'home'));
  dataDir = path.join(folder, 'xdg', 'subledger');

  // prepack builds what is stale: `npm test` built it all, so nothing here rewrites dist/ under other tests.
  await run('npm', ['pack', '--pack-destination', folder], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  const tarball = readdirSync(folder).find((file) => /^subledger-.*\.tgz$/.test(file));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${folder}`);

  const install = (cache: string) =>
    run('npm', ['install', '--omit=dev', cache, '--no-audit', '--no-fund', path.join(folder, tarball)], {
      cwd: prefix,
      maxBuffer: 64 * 1024 * 1024,
    });
  try {
    await install('--offline');
  } catch (error) {
    // The cache holds every package's tarball, but the registry's index of a package only when npm asked for it.
    if (!String((error as { stderr?: string }).stderr).includes('ENOTCACHED')) throw error;
    await install('--prefer-offline');
  }
  bin = path.join(prefix, 'node_modules', '.bin', 'subledger');
}, 10 * 60_000);

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (dataDir)
    await until(() => embeddedServerProcesses(dataDir).length === 0, 'the embedded PostgreSQL to stop', 20_000).catch(
      () => undefined,
    );
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('the release tarball, installed without development dependencies', () => {
  it('holds no development dependency and no build tool', () => {
    const installed = installedPackages(path.join(prefix, 'node_modules'));
    expect(installed.has('subledger')).toBe(true);
    for (const name of [
      'typescript',
      'esbuild',
      'jest',
      'ts-jest',
      'eslint',
      'prettier',
      'preact',
      'react',
      'graphiql',
      '@scalar/api-reference',
    ]) {
      expect(installed.has(name) ? name : null).toBeNull();
    }
    expect([...developmentOnlyPackages()].filter((name) => installed.has(name)).sort()).toEqual([]);
    // Built, not sources: no TypeScript, tests or benchmarks in the package.
    const files = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(path.join(folder, entry.name)) : [path.join(folder, entry.name)],
      );
    const packaged = files(path.join(prefix, 'node_modules', 'subledger')).map((file) =>
      path.relative(path.join(prefix, 'node_modules', 'subledger'), file),
    );
    expect(packaged.filter((file) => /\.tsx?$|^test\/|^src\/|^dist-bench\/|^dist\/test\//.test(file))).toEqual([]);
    expect(packaged).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'CHANGELOG.md',
        'README.md',
        'dist/src/bin.js',
        'dist/dashboard/main.js',
        'schema/schema.graphql',
      ]),
    );
    expect(packaged.some((file) => /^dist\/src\/db\/migrations\/Migration\d+_\w+\.js$/.test(file))).toBe(true);
  });

  it('prints its version and every command', async () => {
    expect((await subledger(['--version'])).stdout.trim()).toBe(manifest.version);
    const help = (await subledger(['--help'])).stdout;
    const commands = [
      'subledger [start]',
      'subledger worker',
      'user:create',
      'rates:import',
      'import',
      'db:url',
      '--version',
      '--help',
    ];
    if (hasBackupCommand()) commands.push('backup', 'restore');
    for (const command of commands) expect(help).toContain(command);
    expect(help).toContain(dataDir);
  });

  it(
    'serves the APIs, the dashboard and the API pages, and stops with its database on SIGTERM',
    async () => {
      const port = await freePort();
      let output = '';
      const child = spawn(bin, [], { cwd: prefix, env: environment(port), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      server = { child, output: () => output, exited, url: `http://127.0.0.1:${port}` };
      const { url } = server;
      await until(
        async () => {
          if (child.exitCode !== null)
            throw new Error(`subledger exited (${child.exitCode}) before it was ready:\n${output}`);
          return fetch(`${url}/readyz`).then(
            (response) => response.ok,
            () => false,
          );
        },
        '/readyz of the installed release',
        120_000,
      );
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(true);
      expect(embeddedServerProcesses(dataDir).length).toBeGreaterThan(0);

      const signUp = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query:
            'mutation { signUp(input: {email: "release@example.com", password: "release password", name: "Release"}) { token } }',
        }),
      });
      const { data } = (await signUp.json()) as { data: { signUp: { token: string } } };
      const token = data.signUp.token;
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...MINIMAL, name: 'Installed release' })) form.set(name, value);
      const created = await fetch(`${url}/api/v1/subscriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      expect(created.status).toBe(200);
      const { subscription } = (await created.json()) as { subscription: { id: number } };
      const listed = await fetch(`${url}/api/v1/subscriptions`, { headers: { authorization: `Bearer ${token}` } });
      expect(JSON.stringify(await listed.json())).toContain(`"id":${subscription.id}`);

      for (const [page, contentType] of [
        ['/', 'text/html'],
        ['/dashboard/main.js', 'javascript'],
        ['/dashboard/main.css', 'text/css'],
        ['/docs', 'text/html'],
        ['/docs/assets/scalar.js', 'javascript'],
        ['/graphql/assets/graphiql.js', 'javascript'],
        ['/graphql/assets/graphiql.css', 'text/css'],
        ['/graphql/assets/react.js', 'javascript'],
        ['/graphql/assets/react-dom.js', 'javascript'],
        ['/openapi.json', 'application/json'],
      ]) {
        const response = await fetch(`${url}${page}`, { headers: { accept: 'text/html,*/*' } });
        expect([page, response.status, response.headers.get('content-type')]).toEqual([
          page,
          200,
          expect.stringContaining(contentType),
        ]);
        expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
      const graphiql = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
      expect(graphiql.status).toBe(200);
      expect(await graphiql.text()).toContain('/graphql/assets/graphiql.js');

      // The CLI finds the running server's database.
      expect((await subledger(['db:url'])).stdout.trim()).toMatch(/^postgres(ql)?:\/\//);
      if (hasBackupCommand()) await checkBackup();

      const postgres = embeddedServerProcesses(dataDir);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await until(
        () => embeddedServerProcesses(dataDir).length === 0 && postgres.every((pid) => !isAlive(pid)),
        'the embedded PostgreSQL to stop',
        20_000,
      );
      expect(output).not.toMatch(/"level":(50|60)/);
    },
    5 * 60_000,
  );
});

/** Whether the CLI has the backup command (being added beside this test). */
function hasBackupCommand(): boolean {
  return /['"]backup['"]/.test(readFileSync(path.join(root, 'src/cli.ts'), 'utf8'));
}

/** `subledger backup FILE` writes the database to a file while the server runs. */
async function checkBackup(): Promise<void> {
  const file = path.join(folder, 'backup.gz');
  await subledger(['backup', file]);
  expect(statSync(file).size).toBeGreaterThan(1000);
}
