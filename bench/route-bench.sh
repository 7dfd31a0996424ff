#!/usr/bin/env bash
# Route computation bench: routes/s on one thread over the mainnet registry (direct calls), then HTTP p50/p99 of
# POST /v2/fungible/route against a node started here (roles api,route; embedded PostgreSQL in a temp dir), next to the
# /health baseline of the same server, and the node's CPU time per request of each (from /proc). Usage: bench/route-bench.sh [seconds per run, default 30: shorter runs measure the JIT warming up] [--live] [--floor]
# (--live: the devnet runs as its own JVM and the node quotes from its L1's live state; --floor: also a refused POST
# and a bus round trip at each concurrency, what any route pays before its search)
# NODE_JAVA_OPTS adds JVM options to the node (e.g. "-Xlog:gc:file=/tmp/gc.log").
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=30
LIVE=""
FLOOR=""
for a in "$@"; do
  case "$a" in
    --live) LIVE=--live ;;
    --floor) FLOOR=--floor ;;
    *[!0-9]* | "") echo "unknown argument $a (expected seconds per run, --live, --floor)"; exit 2 ;;
    *) SECONDS_PER_RUN="$a" ;;
  esac
done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# wait_for NAME PID LOG URL: until URL answers (a minute at most), or exit 1 with the log if the process ended
wait_for() {
  for _ in $(seq 1 120); do
    curl -sf "$4" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "the $1 did not start:"; cat "$3"; exit 1; }
    sleep 0.5
  done
  curl -sf "$4" >/dev/null || { echo "the $1 did not answer $4:"; cat "$3"; exit 1; }
}
mvn -B -q -ntp package -DskipTests
mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
WORK="$(mktemp -d)"
PORT="$(free_port)"
DEVNET=""
NODE=""
trap 'kill $NODE $DEVNET 2>/dev/null || true; wait $NODE $DEVNET 2>/dev/null || true; rm -rf "$WORK"' EXIT
# --live: a devnet in its own JVM (live blocks, as a chain is its own process) and a node that quotes the devnet
# registry's InitiaDEX from the devnet L1's state, read live over REST
if [ "$LIVE" = "--live" ]; then
  L1_REST="$(free_port)"
  java @conf/jvm.options -Dweft.node.roles=devnet -Dweft.devnet.mode=live -Dweft.http.port="$(free_port)" -Dweft.bridge.tcp_enabled=false \
    -Dweft.database.data_dir="$WORK/pg-devnet" -Dweft.devnet.chains.weft-l1-1.rest_port="$L1_REST" -Dweft.log.level=warn \
    -jar target/weft.jar > "$WORK/devnet.log" 2>&1 &
  DEVNET=$!
  wait_for devnet $DEVNET "$WORK/devnet.log" "http://127.0.0.1:$L1_REST/cosmos/base/tendermint/v1beta1/blocks/latest"
  NODE_ARGS="-Dweft.node.roles=api,route -Dweft.route.registries=conf/registry/devnet.json -Dweft.route.rest={\"weft-l1-1\":\"http://127.0.0.1:$L1_REST\"}"
else
  NODE_ARGS="-Dweft.node.roles=api,route -Dweft.route.registries=conf/registry/mainnet.json"
fi
java @conf/jvm.options ${NODE_JAVA_OPTS:-} $NODE_ARGS -Dweft.http.port="$PORT" -Dweft.database.data_dir="$WORK/pg" -Dweft.database.embedded_fsync=false \
  -Dweft.log.level=warn -Dweft.route.reload_scan_interval=0 -Dweft.rate_limit.enabled=false \
  -jar target/weft.jar > "$WORK/node.log" 2>&1 &
NODE=$!
wait_for node $NODE "$WORK/node.log" "http://127.0.0.1:$PORT/health"
mkdir -p bench/results
OUT="bench/results/route-$(date +%Y%m%dT%H%M%S).txt"
java -cp "target/classes:target/test-classes:$(cat target/test-cp.txt)" dev.weft.bench.RouteBench \
  --url "http://127.0.0.1:$PORT" --seconds "$SECONDS_PER_RUN" --node-pid "$NODE" --clock-ticks "$(getconf CLK_TCK)" $LIVE $FLOOR ${L1_REST:+--rest "http://127.0.0.1:$L1_REST"} | tee "$OUT"
if ! kill -0 $NODE 2>/dev/null || grep -q "failed requests" "$OUT"; then
  echo "the node failed during the run; its log:"; tail -50 "$WORK/node.log"; exit 1
fi
