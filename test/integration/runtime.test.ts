import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { SERVER_MALLOC_ENV } from '../../src/platform/ops/node-flags';
import { Receiver } from '../support/receiver';
import {
  childrenOf,
  embeddedServerProcesses,
  isAlive,
  runningProcess,
  type ServiceProcess,
  sessionMembers,
  spawnService,
  startArguments,
  startService,
  stopService,
} from '../support/service-process';
import { MINIMAL } from '../support/subscriptions';
import { freePort, until } from '../support/wait';

/**
 * The runtime as users run it, each case a real `npm start` process: the embedded PostgreSQL under DATA_DIR
 * (second start, SIGKILL, a PGlite folder, a normal user) and several API processes on one port.
 */
const folders: string[] = [];
const running: ServiceProcess[] = [];
afterEach(async () => {
  await Promise.all(
    running
      .splice(0)
      .filter((service) => service.child.exitCode === null)
      .map((service) => stopService(service)),
  );
});
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function dataFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'subledger-runtime-'));
  folders.push(folder);
  return folder;
}

async function start(env: NodeJS.ProcessEnv, options: { uid?: number; gid?: number } = {}) {
  const service = await startService(env, await freePort(), options);
  running.push(service);
  return service;
}

/** Whether the process runs with every setting of SERVER_MALLOC_ENV in its environment. */
function hasMallocSettings(pid: number): boolean {
  const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return Object.entries(SERVER_MALLOC_ENV).every(([name, value]) => environment.includes(`${name}=${value}`));
}

async function signUp(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation { signUp(input: {email: "${email}", password: "runtime password", name: "Runtime"}) { token } }`,
    }),
  });
  const body = (await response.json()) as { data: { signUp: { token: string } } };
  return body.data.signUp.token;
}

function loginForm(email: string): FormData {
  const form = new FormData();
  form.set('email', email);
  form.set('password', 'runtime password');
  return form;
}

async function login(url: string, email: string): Promise<number> {
  return (await fetch(`${url}/api/v1/auth/login`, { method: 'POST', body: loginForm(email) })).status;
}

/** One request on a connection of its own (a keep-alive connection would stay with one process). */
function onNewConnection(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** Whether a TCP connection to the port opens (closed at once). */
function connectable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The embedded server's process, from its lock file. */
function postmasterPid(dataDir: string): number {
  return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

describe('embedded PostgreSQL under DATA_DIR', () => {
  it('refuses a second start on the same DATA_DIR, naming the running process, and leaves the first serving', async () => {
    const dataDir = dataFolder();
    const first = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    const second = spawnService({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' }, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`DATA_DIR ${dataDir} is in use by another Subledger (process ${first.child.pid}`);
    expect(second.stderr()).toContain('dist/src/main.js');
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  });

  it.each([1, 2])('stops its PostgreSQL within 10 s when SIGKILLed (WEB_CONCURRENCY=%i)', async (processes) => {
    const dataDir = dataFolder();
    const service = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: String(processes) });
    await signUp(service.url, 'killed@example.com');
    const server = postmasterPid(dataDir);
    const serverProcesses = [server, ...childrenOf(server)];
    expect(serverProcesses.length).toBeGreaterThan(1);
    service.child.kill('SIGKILL');
    await service.exited;
    await until(
      () => serverProcesses.every((pid) => !isAlive(pid)) && embeddedServerProcesses(dataDir).length === 0,
      'the server and its backends to stop',
      10_000,
    );
    expect(embeddedServerProcesses(dataDir)).toEqual([]);
  });

  it('keeps every acknowledged write when SIGKILLed in the middle of writes, and starts again on the folder', async () => {
    const dataDir = dataFolder();
    const first = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    const token = await signUp(first.url, 'writer@example.com');
    const acknowledged: number[] = [];
    let killed = false;
    // Four writers until the kill: every 200 answer is a commit the next start must still hold.
    const writer = async () => {
      for (let i = 0; !killed; i++) {
        const response = await fetch(`${first.url}/api/v1/subscriptions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...MINIMAL, brand_id: `Write ${i}` }).toString(),
        }).catch(() => null);
        // A 200 whose body the kill cut off was never acknowledged to the client: it need not be kept.
        const body = response?.status === 200 ? await response.json().catch(() => null) : null;
        if (body) acknowledged.push((body as { subscription: { id: number } }).subscription.id);
      }
    };
    const writers = Promise.all([writer(), writer(), writer(), writer()]);
    await until(() => acknowledged.length >= 40, '40 acknowledged writes');
    first.child.kill('SIGKILL');
    await first.exited;
    killed = true;
    await writers;
    await until(() => embeddedServerProcesses(dataDir).length === 0, 'the server to stop', 10_000);

    const second = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    const login = await fetch(`${second.url}/api/v1/auth/login`, {
      method: 'POST',
      body: loginForm('writer@example.com'),
    });
    const { token: again } = (await login.json()) as { token: string };
    const listed = await fetch(`${second.url}/api/v1/subscriptions?length=1000`, {
      headers: { authorization: `Bearer ${again}` },
    });
    const ids = new Set(((await listed.json()) as Array<{ id: number }>).map((record) => record.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    // The watchdog stopped the server: nothing was left to reclaim.
    expect(await (await fetch(`${second.url}/readyz`)).json()).not.toHaveProperty('reclaimedOrphanedDatabase');
  });

  it('reclaims a server whose watchdog was killed too, saying so in /readyz and the log; then a stale lock', async () => {
    const dataDir = dataFolder();
    const first = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    await signUp(first.url, 'killed@example.com');
    const orphan = postmasterPid(dataDir);
    // The watchdog (the server's parent shell, its reader and the reader's cat) dies first, then its owner: the
    // server is left running alone, as one started by a version without the watchdog would be. The watchdog
    // leads a session of its own, which the server and its processes share: every other member of it goes.
    const watchdog = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${orphan}/status`, 'utf8'))![1]);
    const shells = () => sessionMembers(watchdog).filter(({ command }) => command !== 'postgres');
    const killed = shells();
    expect(killed.map(({ command }) => command)).toEqual(expect.arrayContaining(['sh', 'cat']));
    // All stopped first, then killed: killed one by one, a reader still running when its cat was killed would go
    // on to ask the server to stop (CI saw the orphan gone once the watchdog's processes were).
    for (const signal of ['SIGSTOP', 'SIGKILL'] as const)
      for (const member of killed) {
        try {
          process.kill(member.pid, signal);
        } catch (error) {
          // One may be gone already (ESRCH; CI saw it once): none may be left, which the wait below checks.
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
          Object.assign(member, { goneBeforeKilled: true });
        }
      }
    await until(() => shells().length === 0, 'the watchdog, its reader and its cat to go');
    first.child.kill('SIGKILL');
    await first.exited;
    const orphanProcess = runningProcess(orphan);
    expect(orphanProcess).toMatchObject({ command: 'postgres' });
    const second = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1', LOG_LEVEL: 'warn' });
    // Gone, or its pid already reused by another process.
    expect(runningProcess(orphan)).not.toEqual(orphanProcess);
    // With the orphan's log (kept beside the new one), which says when it was asked to stop, and the watchdog's
    // processes as killed, should it have been stopped before the second start came to it.
    expect({
      readyz: await (await fetch(`${second.url}/readyz`)).json(),
      orphanLog: readFileSync(path.join(dataDir, 'postgres.log.1'), 'utf8'),
      killed,
    }).toMatchObject({ readyz: { status: 'ok', reclaimedOrphanedDatabase: { pid: orphan } } });
    expect(second.stdout()).toContain(`shut down a PostgreSQL server (process ${orphan}) left running on ${dataDir}`);
    expect(await login(second.url, 'killed@example.com')).toBe(201);
    await signUp(second.url, 'crashed@example.com');

    // Both killed at once (the OOM killer, a power cut): postmaster.pid names a process that is gone.
    const server = postmasterPid(dataDir);
    second.child.kill('SIGKILL');
    process.kill(server, 'SIGKILL');
    await second.exited;
    await until(() => !isAlive(server), 'the killed server to go');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);
    const third = await start({ DATA_DIR: dataDir, WEB_CONCURRENCY: '1' });
    expect(await login(third.url, 'killed@example.com')).toBe(201);
    expect(await login(third.url, 'crashed@example.com')).toBe(201);
    expect(await (await fetch(`${third.url}/readyz`)).json()).not.toHaveProperty('reclaimedOrphanedDatabase');
  });

  it('refuses a DATA_DIR made by the PGlite version, saying what it is and what to do, and changes nothing', async () => {
    const dataDir = dataFolder();
    // The PGlite version kept its cluster in DATA_DIR itself.
    writeFileSync(path.join(dataDir, 'PG_VERSION'), '18\n');
    mkdirSync(path.join(dataDir, 'base'));
    const service = spawnService({ DATA_DIR: dataDir }, await freePort());
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toContain('PGlite');
    expect(service.stderr()).toContain(`mv ${dataDir} ${dataDir}.pglite`);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'subledger.pid'))).toBe(false);
  });

  it('runs as a normal user (and as root, PostgreSQL as the postgres account)', async () => {
    const dataDir = dataFolder();
    // As root, the test also starts it as "nobody"; as a normal user, this run is that case already.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (asUser.uid !== undefined) chownSync(dataDir, asUser.uid, asUser.gid);
    const service = await start({ DATA_DIR: dataDir, HOME: dataDir, WEB_CONCURRENCY: '1' }, asUser);
    await signUp(service.url, 'normal@example.com');
    // A lone API process restarts itself in place with glibc's malloc settings on a node that can (22.15 and
    // later); on node 20 it runs without them.
    const restarts = typeof (process as { execve?: unknown }).execve === 'function';
    expect(hasMallocSettings(service.child.pid!)).toBe(restarts);
    const serverUid = Number(/Uid:\s+(\d+)/.exec(readFileSync(`/proc/${postmasterPid(dataDir)}/status`, 'utf8'))![1]);
    expect(serverUid).toBe(asUser.uid ?? process.getuid?.());
    expect(await stopService(service)).toBe(0);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

describe('WEB_CONCURRENCY API processes on one port', () => {
  it('serves from every process, restarts a crashed one, shares rate limits, delivers once, drains on SIGTERM', async () => {
    const dataDir = dataFolder();
    const receiver = new Receiver();
    await receiver.start();
    try {
      const service = await start({
        DATA_DIR: dataDir,
        WEB_CONCURRENCY: '2',
        RATE_LIMIT_PER_MINUTE: '60',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      const supervisor = service.child.pid!;
      const apiProcesses = () =>
        childrenOf(supervisor).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.js'));
      // The second API process is forked once the first listens: ready may be answered before it exists.
      await until(() => apiProcesses().length === 2, 'two API processes');
      expect(apiProcesses()).toHaveLength(2);
      // Each with the supervisor's own flags (npm start's).
      const flagsOf = (pid: number) =>
        readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          .split('\0')
          .filter((arg) => arg.startsWith('--'));
      const npmStart = startArguments().filter((arg) => arg.startsWith('--'));
      expect(flagsOf(supervisor)).toEqual(npmStart);
      for (const pid of apiProcesses()) expect(flagsOf(pid)).toEqual(npmStart);
      // And with glibc's malloc settings, which the supervisor gives them on any node.
      for (const pid of apiProcesses()) expect(hasMallocSettings(pid)).toBe(true);

      // Writes land on both processes (a new connection each); every event is delivered exactly once, by the
      // one process that relays, nudged by the other.
      const token = await signUp(service.url, 'cluster@example.com');
      const auth = { authorization: `Bearer ${token}` };
      const endpoint = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation { createWebhookEndpoint(input: {url: "${receiver.url}", events: [SUBSCRIPTION_CREATED]}) { webhookEndpoint { id } userErrors { code } } }`,
        }),
      });
      expect(endpoint.status).toBe(200);
      expect(await endpoint.json()).toEqual({
        data: { createWebhookEndpoint: { webhookEndpoint: { id: expect.any(String) }, userErrors: [] } },
      });
      const form = new URLSearchParams(MINIMAL).toString();
      for (let i = 0; i < 6; i++) {
        const created = await onNewConnection(`${service.url}/api/v1/subscriptions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        expect(created).toBe(200);
      }
      await receiver.waitFor(6);

      // The per-token limit counts across both processes and both APIs: of 60 a minute, the GraphQL request and
      // the 6 creates above used 7.
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++)
        statuses.push(await onNewConnection(`${service.url}/api/v1/subscriptions?length=1`, { headers: auth }));
      expect(statuses.filter((status) => status === 429)).toHaveLength(7);
      expect(statuses.filter((status) => status === 200)).toHaveLength(53);
      // By now a second delivery of any event would have arrived too.
      expect(receiver.received).toHaveLength(6);
      expect(new Set(receiver.received.map((received) => received.headers['webhook-id'])).size).toBe(6);

      // A crashed API process is replaced; the port keeps answering meanwhile.
      const [victim] = apiProcesses();
      process.kill(victim, 'SIGKILL');
      await until(
        () => apiProcesses().length === 2 && !apiProcesses().includes(victim),
        'a replacement process',
        30_000,
      );
      await until(
        () =>
          fetch(`${service.url}/readyz`).then(
            (r) => r.ok,
            () => false,
          ),
        'readiness',
      );

      // SIGTERM drains: a create whose body is still arriving when the port stops taking connections is
      // answered and stored before anything stops.
      const server = postmasterPid(dataDir);
      const members = apiProcesses();
      const body = Buffer.from(form);
      // Another user: the first has used its minute's requests.
      const drainer = { authorization: `Bearer ${await signUp(service.url, 'drain@example.com')}` };
      let answer = '';
      let sendBody: () => void = () => undefined;
      let headersTaken: () => void = () => undefined;
      const taken = new Promise<void>((resolve) => (headersTaken = resolve));
      const inFlight = new Promise<number>((resolve, reject) => {
        // "Expect: 100-continue": the 100 answer says an API process has the request; its body follows later.
        const outgoing = request(
          `${service.url}/api/v1/subscriptions`,
          {
            method: 'POST',
            agent: false,
            headers: {
              ...drainer,
              'content-type': 'application/x-www-form-urlencoded',
              'content-length': String(body.length),
              expect: '100-continue',
            },
          },
          (response) => {
            response.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
            response.on('end', () => resolve(response.statusCode!));
          },
        );
        outgoing.on('error', reject);
        outgoing.on('continue', headersTaken);
        sendBody = () => outgoing.end(body);
      });
      await taken;
      service.child.kill('SIGTERM');
      // A TCP connect only (the supervisor's listening socket), never an HTTP request: one accepted while the
      // API processes close could wait in the supervisor's queue until the drain timeout killed them.
      await until(async () => !(await connectable(service.port)), 'the port to stop taking connections');
      sendBody();
      expect(await inFlight).toBe(200);
      expect(JSON.parse(answer)).toMatchObject({ status: true, subscription: { id: expect.any(Number) } });
      expect(await service.exited).toBe(0);
      expect(members.filter(isAlive)).toEqual([]);
      expect(isAlive(server)).toBe(false);
    } finally {
      await receiver.stop();
    }
  });
});
