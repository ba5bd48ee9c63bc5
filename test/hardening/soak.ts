/**
 * npm run soak (not in CI): SOAK_SECONDS (600) of mixed reads and writes from 50 connections, with every
 * write delivered to a webhook receiver, against the server on the local PostgreSQL and Redis (a fresh
 * database). Reports requests, errors, p99 and the server's RSS after warm-up and at the end, then checks
 * that every committed change has exactly one event and one successful delivery, received once.
 * Exits non-zero on any error, RSS growth over 20% or an inconsistency.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import autocannon from 'autocannon';
import { Client } from 'pg';

import { startArguments } from '../support/service-process';

const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CONNECTIONS = 50;
const WARM_UP_S = Math.min(60, Math.floor(SECONDS / 5));
const root = path.resolve(__dirname, '../../..');

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: SERVER_URL });
  await client.connect();
  await client.query(sql);
  await client.end();
}

/** The GraphQL read of the load: a page of records with their money and folders. */
const PAGE_QUERY =
  '{ subscriptions(first: 20) { totalCount edges { node { id legacyId price { amount currency } folder { name } } } } }';

async function main(): Promise<number> {
  const name = `subledger_soak_${randomBytes(4).toString('hex')}`;
  await admin(`create database "${name}"`);
  const databaseUrl = Object.assign(new URL(SERVER_URL), { pathname: `/${name}` }).toString();
  const port = 3800 + Math.floor(Math.random() * 90);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, startArguments(), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: `soak-${randomBytes(3).toString('hex')}`,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    for (
      let started = Date.now();
      !(await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      ));
      await sleep(100)
    ) {
      if (Date.now() - started > 60_000) throw new Error('server not ready in 60 s');
    }
    const graphql = async (token: string | null, query: string) =>
      (await (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query }),
        })
      ).json()) as { data: Record<string, any> };
    const { token } = (
      await graphql(
        null,
        'mutation { signUp(input: {email: "soak@example.com", password: "soak password", name: "Soak"}) { token } }',
      )
    ).data.signUp;
    const endpoint = await graphql(
      token,
      `mutation { createWebhookEndpoint(input: {url: "http://127.0.0.1:${(receiver.address() as AddressInfo).port}/"}) { webhookEndpoint { id } userErrors { message } } }`,
    );
    if (!endpoint.data?.createWebhookEndpoint?.webhookEndpoint)
      throw new Error(`the webhook endpoint was refused: ${JSON.stringify(endpoint)}`);
    const auth = { authorization: `Bearer ${token}` };
    const form =
      'brand_id=12&type=1&price=9.99&price_type=USD&billing_type=2&billing_frequency=1&billing_cycle=3&payment_date=2026-06-01&status=1&recurring=1';
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const created = (await (
        await fetch(`${base}/api/v1/subscriptions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        })
      ).json()) as { subscription: { id: number } };
      ids.push(created.subscription.id);
    }

    // The read the load repeats answers data, not a validation error the schema would give a stale document.
    const page = (await graphql(token, PAGE_QUERY)) as { data?: unknown; errors?: unknown };
    if (!page.data || page.errors) throw new Error(`the GraphQL read failed: ${JSON.stringify(page)}`);

    const writes = { created: 0, updated: 0, deleted: 0 };
    let rssAfterWarmUp = 0;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(server.pid!))), 1000);
    const warmUp = setTimeout(() => (rssAfterWarmUp = rssOf(server.pid!)), WARM_UP_S * 1000);
    let next = 0;
    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: auth,
      requests: [
        { method: 'GET', path: '/api/v1/subscriptions?length=100' },
        { method: 'GET', path: '/api/v1/subscriptions/upcoming?days=30' },
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: `/api/v1/subscriptions/${ids[next++ % ids.length]}` }),
        },
        {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          setupRequest: (request) => ({
            ...request,
            path: `/api/v1/subscriptions/${ids[next++ % ids.length]}`,
            body: `note=soak ${next}`,
          }),
          onResponse: (status) => void (status === 200 && writes.updated++),
        },
        // Each connection deletes the record it has just created, so the data stays the same size and RSS
        // growth means a leak, not more rows per read.
        {
          method: 'POST',
          path: '/api/v1/subscriptions',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
          onResponse: (status, body, context) => {
            if (status !== 200) return;
            writes.created++;
            (context as { created?: number }).created = (
              JSON.parse(body) as { subscription: { id: number } }
            ).subscription.id;
          },
        },
        {
          method: 'DELETE',
          setupRequest: (request, context) => ({
            ...request,
            path: `/api/v1/subscriptions/${(context as { created?: number }).created ?? 0}`,
          }),
          onResponse: (status) => void (status === 200 && writes.deleted++),
        },
        {
          method: 'POST',
          path: '/graphql',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            query: PAGE_QUERY,
          }),
        },
      ],
    } as autocannon.Options);
    clearInterval(sampler);
    clearTimeout(warmUp);
    const rssAtEnd = rssOf(server.pid!);

    // Let the outbox drain, then check every change against its event, its delivery and the receiver.
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    for (let waited = 0; waited < 120; waited++) {
      const { rows } = await client.query(
        `select count(*)::int as "n" from "webhook_deliveries" where "status" <> 'SUCCEEDED'`,
      );
      if (rows[0].n === 0) break;
      await sleep(1000);
    }
    const {
      rows: [db],
    } = await client.query(`select
        (select count(*)::int from "webhook_events" where "topic" = 'subscription.created') as "created",
        (select count(*)::int from "webhook_events" where "topic" = 'subscription.updated') as "updated",
        (select count(*)::int from "webhook_events" where "topic" = 'subscription.deleted') as "deleted",
        (select count(*)::int from "webhook_events" e where (select count(*) from "webhook_deliveries" d where d."event_id" = e."id" and d."status" = 'SUCCEEDED') <> 1) as "not_once",
        (select count(*)::int from "webhook_events") as "events",
        (select count(*)::int from "subscriptions") as "records"`);
    const { rows: events } = await client.query(`select "id" from "webhook_events"`);
    await client.end();
    const unreceived = events.filter((event) => arrivals.get(event.id) === undefined).length;
    const duplicated = [...arrivals.values()].filter((count) => count > 1).length;
    const growth = rssAfterWarmUp > 0 ? (rssAtEnd - rssAfterWarmUp) / rssAfterWarmUp : 0;
    const report = {
      seconds: SECONDS,
      connections: CONNECTIONS,
      requests: result.requests.total,
      requestsPerSecond: result.requests.average,
      errors: result.errors,
      non2xx: result.non2xx,
      timeouts: result.timeouts,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      rssAfterWarmUpMb: Math.round(rssAfterWarmUp),
      rssAtEndMb: Math.round(rssAtEnd),
      peakRssMb: Math.round(peakRss),
      rssGrowthPercent: Math.round(growth * 100),
      records: db.records,
      acknowledgedWrites: { created: writes.created + ids.length, updated: writes.updated, deleted: writes.deleted },
      events: { created: db.created, updated: db.updated, deleted: db.deleted, all: db.events },
      eventsNotDeliveredExactlyOnce: db.not_once,
      eventsNeverReceived: unreceived,
      eventsReceivedTwice: duplicated,
    };
    console.log(JSON.stringify(report, null, 2));
    const problems = [
      result.errors + result.non2xx + result.timeouts > 0 && 'requests failed',
      growth > 0.2 && 'RSS grew more than 20%',
      // Every record has its one created event. Writes still in flight when the load stopped committed without
      // their answer being counted, so events may exceed the acknowledged writes by at most one per connection.
      db.created !== db.records && 'created events do not match the records',
      (db.created < report.acknowledgedWrites.created ||
        db.created > report.acknowledgedWrites.created + CONNECTIONS) &&
        'created events do not match acknowledged creates',
      (db.updated < report.acknowledgedWrites.updated ||
        db.updated > report.acknowledgedWrites.updated + CONNECTIONS) &&
        'updated events do not match acknowledged updates',
      (db.deleted < report.acknowledgedWrites.deleted ||
        db.deleted > report.acknowledgedWrites.deleted + CONNECTIONS) &&
        'deleted events do not match acknowledged deletes',
      db.not_once > 0 && 'events without exactly one successful delivery',
      unreceived > 0 && 'events the receiver never got',
      duplicated > 0 && 'events received twice',
    ].filter(Boolean);
    console.log(problems.length ? `SOAK FAILED: ${problems.join('; ')}` : 'soak passed');
    return problems.length ? 1 : 0;
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    receiver.close();
    await admin(`drop database if exists "${name}" with (force)`);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
