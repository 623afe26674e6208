#!/bin/sh
# One-shot (temporalio/admin-tools image), run once the Temporal server is healthy: registers Postwire's
# namespace and the custom search attributes its workflows set. Safe to run on every start.
# Keep SEARCH_ATTRIBUTES in step with workflows/search-attributes.ts (name:type).
set -eu

: "${TEMPORAL_ADDRESS:=temporal:7233}"
: "${TEMPORAL_NAMESPACE:=default}"
: "${TEMPORAL_NAMESPACE_RETENTION:=720h}"
SEARCH_ATTRIBUTES="ProjectId:Keyword ContactId:Keyword AutomationId:Keyword CampaignId:Keyword CurrentStep:Keyword EmailId:Keyword SendAt:Datetime"

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

if t operator namespace describe --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "[temporal-setup] namespace $TEMPORAL_NAMESPACE exists"
else
  t operator namespace create --namespace "$TEMPORAL_NAMESPACE" --retention "$TEMPORAL_NAMESPACE_RETENTION"
  echo "[temporal-setup] namespace $TEMPORAL_NAMESPACE created (retention $TEMPORAL_NAMESPACE_RETENTION)"
  # A new namespace reaches every frontend's cache within seconds.
  sleep 10
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
  fi
done
echo "[temporal-setup] done"
