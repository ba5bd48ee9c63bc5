import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { PersistedQueryOptions } from '@apollo/server';
import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';

import { ConfigError } from '../config';
import type { Logger } from '../logger';
import { bundleFolder } from '../web/dashboard';

/** The operations the build registered: the SHA-256 (hex) of each exact text, and the text. */
export type RegisteredOperations = ReadonlyMap<string, string>;

/** What `npm run build` writes beside the dashboard bundle (scripts/persisted-operations.mjs). */
export const MANIFEST_FILE = 'persisted-operations.json';

/** The code of a refused operation in GRAPHQL_PERSISTED_ONLY mode (HTTP 400). */
export const NOT_REGISTERED = 'PERSISTED_QUERY_NOT_REGISTERED';

/** Characters of client-registered operations a process keeps in memory (Redis keeps them for all). */
const LOCAL_CHARACTERS = 4 * 1024 * 1024;
/** How long Redis keeps an operation a client registered; a client sends its text again when it is gone. */
const SHARED_TTL_SECONDS = 24 * 60 * 60;

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The registered operations of the dashboard build (dist/dashboard/persisted-operations.json). Missing, they
 * are none, unless only registered operations may run: then the server cannot serve the dashboard and refuses
 * to start. Each text must have its hash (a hand-edited file would register what it does not say).
 */
export function loadRegisteredOperations(persistedOnly: boolean, file = manifestPath()): RegisteredOperations {
  let raw: string;
  try {
    if (!file) throw new Error('no dashboard build');
    raw = readFileSync(file, 'utf8');
  } catch {
    if (!persistedOnly) return new Map();
    throw new ConfigError([
      `GRAPHQL_PERSISTED_ONLY=true needs the dashboard's registered operations (dist/dashboard/${MANIFEST_FILE}): run npm run build`,
    ]);
  }
  const registered = new Map<string, string>();
  for (const [hash, text] of Object.entries(JSON.parse(raw) as Record<string, unknown>)) {
    if (typeof text !== 'string' || sha256Hex(text) !== hash)
      throw new ConfigError([`${file}: the operation under ${hash} does not have that SHA-256`]);
    registered.set(hash, text);
  }
  return registered;
}

function manifestPath(): string | null {
  const folder = bundleFolder();
  return folder && path.join(folder, MANIFEST_FILE);
}

/** Apollo's cache of persisted queries (its keys are `apq:<hash>`). */
type KeyValueCache = NonNullable<PersistedQueryOptions['cache']>;

/**
 * Where Apollo finds the text of an operation sent by its hash alone (automatic persisted queries): the build's
 * registered operations first, then those clients registered (hash and text sent together, after the hash alone
 * was not found), kept in this process (bounded, least recently used out first) and, with Redis, for every
 * process on the same REDIS_PREFIX. Redis failing is a miss (the client sends the text again), never an error.
 * With `persistedOnly`, clients register nothing.
 */
export class PersistedQueryCache implements KeyValueCache {
  private readonly local = new LRUCache<string, string>({
    maxSize: LOCAL_CHARACTERS,
    sizeCalculation: (text) => Math.max(1, text.length),
  });

  constructor(
    private readonly registered: RegisteredOperations,
    private readonly persistedOnly: boolean,
    private readonly shared: { redis: Redis; prefix: string } | null,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const hash = hashOf(key);
    const registered = hash === undefined ? undefined : this.registered.get(hash);
    if (registered !== undefined || this.persistedOnly) return registered;
    const kept = this.local.get(key);
    if (kept !== undefined || !this.shared) return kept;
    try {
      const text = await this.shared.redis.get(this.sharedKey(key));
      if (text === null) return undefined;
      this.local.set(key, text);
      return text;
    } catch (error) {
      this.logger.debug({ err: error }, 'persisted query lookup in Redis failed');
      return undefined;
    }
  }

  async set(key: string, text: string): Promise<void> {
    if (this.persistedOnly) return;
    this.local.set(key, text);
    if (!this.shared) return;
    try {
      await this.shared.redis.set(this.sharedKey(key), text, 'EX', SHARED_TTL_SECONDS);
    } catch (error) {
      this.logger.debug({ err: error }, 'persisted query registration in Redis failed');
    }
  }

  async delete(key: string): Promise<boolean> {
    const deleted = this.local.delete(key);
    if (!this.shared || this.persistedOnly) return deleted;
    try {
      return (await this.shared.redis.del(this.sharedKey(key))) > 0 || deleted;
    } catch {
      return deleted;
    }
  }

  private sharedKey(key: string): string {
    return `${this.shared!.prefix}:graphql:${key}`;
  }
}

/** The hash at the end of Apollo's key (`apq:<hash>`). */
function hashOf(key: string): string | undefined {
  const hash = key.slice(key.lastIndexOf(':') + 1);
  return SHA256_HEX.test(hash) ? hash : undefined;
}

/**
 * The SHA-256 a request names in `extensions.persistedQuery` (version 1, the only one Apollo takes: it refuses
 * the others itself).
 */
export function persistedQueryHash(extensions: unknown): string | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const persisted = (extensions as { persistedQuery?: unknown }).persistedQuery;
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  return version === 1 && typeof sha256Hash === 'string' ? sha256Hash : undefined;
}

/**
 * GRAPHQL_PERSISTED_ONLY=true: a request runs only a registered operation, named by its exact text or by its
 * hash alone, whatever carries it (a POSTed body, a GET's parameters, a multipart upload's operations: this runs
 * after they are parsed). Anything else, and a client registering an operation of its own (its hash and text),
 * is refused with PERSISTED_QUERY_NOT_REGISTERED and HTTP 400 before Apollo parses anything. (Answers kept for
 * queries, sent before this by keptQueryAnswers, were all made by operations that passed here.)
 */
export function persistedOnly(registered: RegisteredOperations): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.method === 'GET' ? getParameters(req.query) : req.body;
    // A batch (which Apollo refuses) is refused here if any of its operations would be.
    for (const request of Array.isArray(body) ? body : [body]) {
      const refusal = refusalOf(registered, request);
      if (refusal) {
        res.status(400).json({ errors: [{ message: refusal, extensions: { code: NOT_REGISTERED } }] });
        return;
      }
    }
    next();
  };
}

const ONLY_REGISTERED = 'This server runs only the operations its build registered (GRAPHQL_PERSISTED_ONLY)';

/** Why a request may not run, or null (a registered operation, or a malformed request Apollo refuses itself). */
function refusalOf(registered: RegisteredOperations, request: unknown): string | null {
  if (typeof request !== 'object' || request === null) return null;
  const { query, extensions } = request as { query?: unknown; extensions?: unknown };
  const hash = persistedQueryHash(extensions);
  if (typeof query === 'string' && query !== '') {
    if (registered.has(sha256Hex(query))) return null;
    return hash === undefined
      ? `${ONLY_REGISTERED}; this one is not`
      : `${ONLY_REGISTERED}: clients may not register operations`;
  }
  if (hash !== undefined) return registered.has(hash) ? null : `${ONLY_REGISTERED}; none has this hash`;
  return null;
}

/** A GET's GraphQL parameters as Apollo reads them: `extensions` is JSON (one it cannot read, it refuses). */
function getParameters(query: Request['query']): unknown {
  let extensions: unknown;
  try {
    extensions = typeof query.extensions === 'string' ? JSON.parse(query.extensions) : undefined;
  } catch {
    extensions = undefined;
  }
  return { query: query.query, extensions };
}
