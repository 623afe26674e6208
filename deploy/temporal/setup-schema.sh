#!/bin/sh
# One-shot: creates Temporal's two databases on the PostgreSQL server and brings their schemas to the version
# this Temporal release needs. Safe to run on every start: an existing database is kept, and update-schema
# only applies what is missing. docker-compose.yml runs it in the temporalio/admin-tools image; `npm run
# cluster` runs it with the same release's temporal-sql-tool first on PATH and TEMPORAL_SCHEMA_DIR set.
set -eu

: "${SQL_HOST:=postgres}"
: "${SQL_PORT:=5432}"
: "${SQL_USER:?SQL_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}" # read by temporal-sql-tool itself
: "${TEMPORAL_DB:=temporal}"
: "${TEMPORAL_VISIBILITY_DB:=temporal_visibility}"
# Where the release's schema files are (the admin-tools image's place by default).
: "${TEMPORAL_SCHEMA_DIR:=/etc/temporal/schema}"

schema="$TEMPORAL_SCHEMA_DIR/postgresql/v12"

for pair in "$TEMPORAL_DB:temporal" "$TEMPORAL_VISIBILITY_DB:visibility"; do
  db=${pair%%:*}
  kind=${pair#*:}
  echo "[temporal-schema] $db ($kind)"
  temporal-sql-tool --plugin postgres12 --ep "$SQL_HOST" -p "$SQL_PORT" -u "$SQL_USER" --db "$db" create
  temporal-sql-tool --plugin postgres12 --ep "$SQL_HOST" -p "$SQL_PORT" -u "$SQL_USER" --db "$db" setup-schema -v 0.0
  temporal-sql-tool --plugin postgres12 --ep "$SQL_HOST" -p "$SQL_PORT" -u "$SQL_USER" --db "$db" update-schema -d "$schema/$kind/versioned"
done
echo "[temporal-schema] done"
