// The build: the server (tsc), the browser files the pages serve (copied from their packages into
// dist/assets), and the dashboard bundle (esbuild).
//
//   node scripts/build.mjs                       everything (`npm run build`)
//   node scripts/build.mjs --if-stale            only the parts whose sources are newer than their output
//                                                (`npm start`, `npm run cli`, `npm run worker`, `npm install`)
//   node scripts/build.mjs --if-stale --release  the same, then the compiled files whose source is gone are
//                                                removed, so `npm pack` (prepack) packs only today's sources
//   node scripts/build.mjs --if-stale --dry-run [--root FOLDER]
//                                                prints the stale parts (server, dashboard), one a line, and
//                                                builds nothing (tests, on a tree of their own)
//
// Staleness is by modification time: the server is stale when a file under src/ (but src/dashboard/),
// rest-facade/, workers/, tsconfig.json, tsconfig.build.json or node_modules/.package-lock.json (written by
// every npm install that changes a package) is newer than dist/.tsbuildinfo; the dashboard when a file under
// src/dashboard/ or node_modules/.package-lock.json is newer than dist/dashboard/main.js, main.css,
// persisted-operations.json (the dashboard's GraphQL operations, see persisted-operations.mjs),
// locales/en.json (its message catalogues, see dashboard-locales.mjs) or sw.js (its service worker, written
// last, see dashboard-app.mjs). Each
// step touches its stamp when it succeeds. Nothing is printed on standard output (`npm run -s cli -- db:url`
// prints only the URL); building says so on standard error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const option = (name) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const root = path.resolve(option('--root') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const at = (...parts) => path.join(root, ...parts);
const say = (line) => process.stderr.write(`subledger build: ${line}\n`);

const INSTALLED = at('node_modules', '.package-lock.json');
const STEPS = [
  {
    name: 'server',
    script: 'build:server',
    sources: ['src', 'rest-facade', 'workers', 'tsconfig.json', 'tsconfig.build.json', INSTALLED],
    skip: [at('src', 'dashboard')],
    stamps: [at('dist', '.tsbuildinfo')],
  },
  {
    name: 'dashboard',
    script: 'build:dashboard',
    sources: [at('src', 'dashboard'), INSTALLED],
    skip: [],
    stamps: [
      at('dist', 'dashboard', 'main.js'),
      at('dist', 'dashboard', 'main.css'),
      at('dist', 'dashboard', 'persisted-operations.json'),
      at('dist', 'dashboard', 'locales', 'en.json'),
      at('dist', 'dashboard', 'sw.js'),
    ],
  },
];

/** The newest modification time (ms) of the files under `sources`, or 0. */
function newest(sources, skip) {
  let latest = 0;
  const visit = (file) => {
    if (skip.includes(file)) return;
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const source of sources) visit(path.isAbsolute(source) ? source : at(source));
  return latest;
}

/** The oldest of the stamps' times, or -1 when one is missing. */
function oldestStamp(stamps) {
  let oldest = Infinity;
  for (const stamp of stamps) {
    try {
      oldest = Math.min(oldest, fs.statSync(stamp).mtimeMs);
    } catch {
      return -1;
    }
  }
  return oldest;
}

/** `npm run <script>` with the npm that runs this script (or the one on PATH); exits on failure. */
function npmRun(script) {
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', '--silent', script], { cwd: root, stdio: ['ignore', 2, 2] })
    : spawnSync('npm', ['run', '--silent', script], {
        cwd: root,
        stdio: ['ignore', 2, 2],
        shell: process.platform === 'win32',
      });
  if (result.status !== 0) {
    say(`npm run ${script} failed`);
    process.exit(result.status ?? 1);
  }
}

function touch(stamps) {
  const now = new Date();
  for (const stamp of stamps) fs.utimesSync(stamp, now, now);
}

/**
 * The browser files of vendor-assets.json, copied into dist/assets/<package>/ with each package's
 * package.json and licence files: the installed release serves them from there without installing the packages. A file is copied only
 * when its copy is missing or differs in size or time (through a temporary name, so a running server never
 * reads half a file); files no longer listed are removed.
 */
function copyVendorAssets() {
  const listed = JSON.parse(fs.readFileSync(at('src', 'platform', 'web', 'vendor-assets.json'), 'utf8'));
  const require = createRequire(at('package.json'));
  const target = at('dist', 'assets');
  const wanted = new Set();
  for (const [name, files] of Object.entries(listed)) {
    const folder = packageFolder(require, name);
    // Their licences go with them: the licence files, and package.json (name, version, licence, repository).
    const licences = [
      'package.json',
      ...fs.readdirSync(folder).filter((file) => /^(licen[cs]e|copying|notice)/i.test(file)),
    ];
    for (const file of [...files, ...licences]) {
      const from = path.join(folder, file);
      const to = path.join(target, name, file);
      wanted.add(to);
      const source = fs.statSync(from);
      const copy = fs.statSync(to, { throwIfNoEntry: false });
      if (copy && copy.size === source.size && Math.floor(copy.mtimeMs) === Math.floor(source.mtimeMs)) continue;
      fs.mkdirSync(path.dirname(to), { recursive: true });
      const partial = `${to}.partial-${process.pid}`;
      fs.copyFileSync(from, partial);
      fs.utimesSync(partial, source.atime, source.mtime);
      fs.renameSync(partial, to);
    }
  }
  for (const file of filesUnder(target)) if (!wanted.has(file)) fs.rmSync(file);
}

/** The installed package's folder: the nearest one up from its entry point whose package.json names it. */
function packageFolder(require, name) {
  let folder = path.dirname(require.resolve(name));
  for (;;) {
    const manifest = path.join(folder, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === name) return folder;
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`${name} is not installed (npm install)`);
    folder = parent;
  }
}

function filesUnder(folder) {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** Compiled files under dist/{src,rest-facade,workers} whose source file is gone (tsc never removes them). */
function pruneOrphans() {
  for (const tree of ['src', 'rest-facade', 'workers']) {
    for (const file of filesUnder(at('dist', tree))) {
      const relative = path.relative(at('dist'), file);
      const compiled = /\.(js|js\.map|d\.ts)$/.exec(relative);
      const sources = compiled
        ? ['.ts', '.tsx'].map((extension) => relative.slice(0, compiled.index) + extension)
        : [relative];
      if (sources.some((source) => fs.existsSync(at(source)))) continue;
      say(`removing ${path.join('dist', relative)}: its source is gone`);
      fs.rmSync(file);
    }
  }
}

const ifStale = process.argv.includes('--if-stale');
const release = process.argv.includes('--release');
const stale = STEPS.filter((step) => !ifStale || newest(step.sources, step.skip) > oldestStamp(step.stamps));
if (process.argv.includes('--dry-run')) {
  for (const step of stale) process.stdout.write(`${step.name}\n`);
  process.exit(0);
}
if (stale.length > 0 && ifStale)
  say(`building ${stale.map((step) => step.name).join(' and ')} (sources changed since the last build)`);
for (const step of stale) {
  npmRun(step.script);
  touch(step.stamps);
}
copyVendorAssets();
if (release) {
  pruneOrphans();
  const bin = at('dist', 'src', 'bin.js');
  if (!fs.readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node'))
    throw new Error(`${bin} does not start with #!/usr/bin/env node`);
}
