#!/usr/bin/env bash
# Builds the Temporal server (`temporal-server`) and its SQL schema tool (`temporal-sql-tool`) from source, at the
# version docker-compose.yml runs, into .tools/temporal-server-<version>/ beside the PostgreSQL schema files of
# that release, laid out as the temporalio/server and admin-tools images have them. `npm run cluster` and the
# cluster suite of `npm test` run them (docs/cluster.md). Does nothing when that folder is complete. Prints the
# folder on stdout; what it does goes to stderr.
#
# Source and the Go toolchain the release needs both come from the Go module proxy (`go` of any version from 1.21
# on fetches the pinned toolchain itself). Go's module and build caches stay where Go keeps them, outside the
# repository, so another clone of it only relinks: seconds, where a first build takes some 5 CPU-minutes
# (docs/cluster.md "The Temporal server build").
set -euo pipefail
cd "$(dirname "$0")/.."
exec 3>&1 1>&2

# The version is docker-compose.yml's (the default of TEMPORAL_VERSION), so the two never drift apart.
version=$(sed -n 's|.*temporalio/server:${TEMPORAL_VERSION:-\([0-9][0-9.]*\)}.*|\1|p' docker-compose.yml | sort -u)
if [ -z "$version" ] || [ "$(printf '%s\n' "$version" | wc -l)" -ne 1 ]; then
  echo "[temporal-server] docker-compose.yml names no single temporalio/server:\${TEMPORAL_VERSION:-x.y.z} image" >&2
  exit 1
fi
# The Go release v$version's go.mod asks for at least; GOTOOLCHAIN fetches it when the local go is older.
GO_TOOLCHAIN=go1.26.10
# As the release images are built (the server's Makefile): static, without the optional gRPC modules.
BUILD_TAGS=disable_grpc_modules

out=".tools/temporal-server-$version"
# What the folder was built with: a change of toolchain or flags builds it again.
stamp="$version $GO_TOOLCHAIN $BUILD_TAGS"
built() { [ -x "$out/temporal-server" ] && [ -x "$out/temporal-sql-tool" ] && [ "$(cat "$out/.complete" 2>/dev/null)" = "$stamp" ]; }
done_() { echo "$out" >&3; exit 0; }
built && done_
# One build at a time (`npm test` and `npm run cluster` started together): the second waits, then finds it done.
mkdir -p .tools
exec 9>".tools/temporal-server.lock"
flock 9
built && done_

if ! command -v go >/dev/null 2>&1; then
  echo "[temporal-server] building the Temporal server needs Go (any release from 1.21 on: https://go.dev/dl/)" >&2
  exit 1
fi

echo "[temporal-server] building Temporal server $version from source with $GO_TOOLCHAIN (a first build takes several minutes)"
started=$(date +%s)
rm -rf "$out"
staging=$(mktemp -d "${TMPDIR:-/tmp}/postwire-temporal-server.XXXXXX")
trap 'rm -rf "$staging"' EXIT
# The caller's GOFLAGS (say -mod=vendor) and go.work have no say over a module built at a version.
export GOTOOLCHAIN="$GO_TOOLCHAIN" GOFLAGS= GOWORK=off CGO_ENABLED=0
GOBIN="$staging/bin" go install -tags "$BUILD_TAGS" \
  "go.temporal.io/server/cmd/server@v$version" \
  "go.temporal.io/server/cmd/tools/sql@v$version"

# The schema files of the same release, from the module's source in Go's module cache.
source_dir="$(go env GOMODCACHE)/go.temporal.io/server@v$version"
mkdir -p "$staging/out/schema"
cp -R "$source_dir/schema/postgresql" "$staging/out/schema/postgresql"
chmod -R u+w "$staging/out/schema"
mv "$staging/bin/server" "$staging/out/temporal-server"
mv "$staging/bin/sql" "$staging/out/temporal-sql-tool"
echo "$stamp" > "$staging/out/.complete"
mv "$staging/out" "$out"
echo "[temporal-server] built into $out in $(($(date +%s) - started))s"
done_
