#!/bin/sh
# Entry point of the Postwire image: `api` (default), `worker`, `migrate`, or `healthcheck api|worker`
# runs that process from dist/; anything else is run as a command.
set -e
[ $# -eq 0 ] && set -- api
case "$1" in
  api | worker | migrate | healthcheck)
    process="$1"
    shift
    exec node "/app/dist/src/main/$process.js" "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
