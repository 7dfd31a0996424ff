#!/usr/bin/env bash
# Starts a Weft cluster on this machine: one node per argument, each argument naming that node's roles.
#   cluster/start.sh api ingest,evm,richlist route,track
# Node 0 is added automatically: it keeps the embedded PostgreSQL (role db) and runs the devnet, so the nodes you name
# can be killed and restarted freely. Node i (1..N) serves HTTP on 8080+i-1, joins Hazelcast on 5701+i, and its TCP
# bridge listens on 7000+i-1. Logs and process ids go to cluster/run/. Stop everything with cluster/stop.sh.
# Environment: WEFT_JAR (default target/weft.jar), WEFT_CLUSTER_DIR (default cluster/run), JAVA_OPTS, and any WEFT_*
# configuration variable, passed on to every node. The admin API needs a token: WEFT_ADMIN_TOKEN if set, else a random
# one written to cluster/run/admin-token (every node gets the same).
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=${WEFT_JAR:-target/weft.jar}
RUN=${WEFT_CLUSTER_DIR:-cluster/run}
PG_PORT=${WEFT_CLUSTER_PG_PORT:-54329}
if [ $# -eq 0 ]; then echo "usage: cluster/start.sh ROLES [ROLES...]   e.g. cluster/start.sh api ingest,evm,richlist route,track" >&2; exit 2; fi
[ -f "$JAR" ] || { echo "no $JAR: build it with mvn -q -B package -DskipTests" >&2; exit 2; }
if [ -s "$RUN/pids" ]; then echo "a cluster started from $RUN is still running: cluster/stop.sh first" >&2; exit 2; fi
mkdir -p "$RUN"
: > "$RUN/pids"
if [ -z "${WEFT_ADMIN_TOKEN:-}" ]; then
  WEFT_ADMIN_TOKEN=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
fi
export WEFT_ADMIN_TOKEN
(umask 077; printf '%s\n' "$WEFT_ADMIN_TOKEN" > "$RUN/admin-token")

DB_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
start_node() { # name roles httpPort hzPort bridgePort extra-env...
  local name=$1 roles=$2 http=$3 hz=$4 bridge=$5; shift 5
  env "$@" WEFT_NODE_NAME="$name" WEFT_HTTP_PORT="$http" WEFT_CLUSTER_PORT="$hz" WEFT_BRIDGE_TCP_PORT="$bridge" \
    java @conf/jvm.options ${JAVA_OPTS:-} -jar "$JAR" --cluster --cluster-host 127.0.0.1 --roles "$roles" > "$RUN/$name.log" 2>&1 &
  echo "$! $name" >> "$RUN/pids"
  echo "started $name (pid $!, roles $roles, http $http, hazelcast $hz)"
}
wait_for() { # what command...
  local what=$1; shift
  for _ in $(seq 1 240); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  echo "timed out waiting for $what (see $RUN/*.log)" >&2; return 1
}

start_node node0 db,devnet 8079 5701 6999 WEFT_DATABASE_EMBEDDED_PORT="$PG_PORT" WEFT_DATABASE_DATA_DIR="${WEFT_DATABASE_DATA_DIR:-$RUN/pg}"
wait_for "node0's database" bash -c "exec 3<>/dev/tcp/127.0.0.1/$PG_PORT"
wait_for "node0's devnet" curl -sf http://127.0.0.1:26657/status
i=1
for roles in "$@"; do
  start_node "node$i" "$roles" $((8080 + i - 1)) $((5701 + i)) $((7000 + i - 1)) WEFT_DATABASE_URL="$DB_URL" \
    WEFT_CHAIN_RPC=http://127.0.0.1:26657 WEFT_CHAIN_REST=http://127.0.0.1:1317 WEFT_CHAIN_JSON_RPC=http://127.0.0.1:8545 \
    WEFT_TRACK_NODES='{"weft-l1-1":["http://127.0.0.1:26667"],"weft-move-1":["http://127.0.0.1:26677"]}'
  grep -q "is up" "$RUN/node$i.log" 2>/dev/null || wait_for "node$i" grep -q "is up" "$RUN/node$i.log"
  i=$((i + 1))
done
echo "cluster up: $((i - 1)) nodes + node0 (database, devnet). Nodes (if node1 runs api):"
echo "  curl -H \"Authorization: Bearer \$(cat $RUN/admin-token)\" http://127.0.0.1:8080/admin/nodes"
