#!/bin/sh
# One-shot, run once the Temporal server is up: registers Postwire's namespace and the custom search attributes
# its workflows set. Safe to run on every start. docker-compose.yml runs it in the temporalio/admin-tools image;
# `npm run cluster` runs it with the pinned Temporal CLI (.tools/venv) first on PATH.
# Keep SEARCH_ATTRIBUTES in step with workflows/search-attributes.ts (name:type).
set -eu

: "${TEMPORAL_ADDRESS:=temporal:7233}"
: "${TEMPORAL_NAMESPACE:=default}"
: "${TEMPORAL_NAMESPACE_RETENTION:=720h}"
SEARCH_ATTRIBUTES="ProjectId:Keyword ContactId:Keyword AutomationId:Keyword CampaignId:Keyword CurrentStep:Keyword SendAt:Datetime"

# The CLI can prefer an IPv6 address the server does not listen on; resolve the host to IPv4 first.
host=${TEMPORAL_ADDRESS%:*}
port=${TEMPORAL_ADDRESS##*:}
ip=$(getent ahostsv4 "$host" 2>/dev/null | awk 'NR == 1 { print $1 }')
address="${ip:-$host}:$port"
t() { temporal --address "$address" "$@"; }

attempt=1
until t operator cluster health >/dev/null 2>&1; do
  [ "$attempt" -ge 60 ] && { echo "[temporal-setup] server at $address is not healthy" >&2; exit 1; }
  attempt=$((attempt + 1))
  sleep 2
done

changed=false
if t operator namespace describe --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "[temporal-setup] namespace $TEMPORAL_NAMESPACE exists"
else
  t operator namespace create --namespace "$TEMPORAL_NAMESPACE" --retention "$TEMPORAL_NAMESPACE_RETENTION"
  echo "[temporal-setup] namespace $TEMPORAL_NAMESPACE created (retention $TEMPORAL_NAMESPACE_RETENTION)"
  changed=true
  # Until a new namespace reaches the frontends' cache (within seconds), they answer that it is not found.
  attempt=1
  until t operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; do
    [ "$attempt" -ge 60 ] && { echo "[temporal-setup] namespace $TEMPORAL_NAMESPACE is not served" >&2; exit 1; }
    attempt=$((attempt + 1))
    sleep 1
  done
fi

registered() { t operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" | awk '{ print $1 }' | grep -qx "$1"; }
for attribute in $SEARCH_ATTRIBUTES; do
  name=${attribute%%:*}
  type=${attribute##*:}
  if registered "$name"; then
    echo "[temporal-setup] search attribute $name exists"
  else
    t operator search-attribute create --namespace "$TEMPORAL_NAMESPACE" --name "$name" --type "$type"
    echo "[temporal-setup] search attribute $name created"
    changed=true
  fi
done
# Every frontend reloads its namespace cache every 2 s (system.namespaceCacheRefreshInterval); until then a
# workflow that sets a new search attribute is refused. Postwire starts once this script has ended.
if [ "$changed" = true ]; then sleep 5; fi
echo "[temporal-setup] done"
