#!/bin/sh
# Entry point of the Postwire image: `api` (default), `worker`, `migrate`, `healthcheck api|worker`, or
# `admin <command>` (docs/operators.md)
# runs that process from dist/; anything else is run as a command.
set -e
[ $# -eq 0 ] && set -- api
case "$1" in
  api | worker | migrate | healthcheck | admin)
    process="$1"
    shift
    # The worker's young generations capped as src/main/worker-heap.ts (WORKER_NODE_OPTIONS) says.
    if [ "$process" = worker ]; then export NODE_OPTIONS="--max-semi-space-size=8${NODE_OPTIONS:+ $NODE_OPTIONS}"; fi
    exec node "/app/dist/src/main/$process.js" "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
