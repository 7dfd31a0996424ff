#!/usr/bin/env bash
# Route computation bench: routes/s on one thread over the mainnet registry (direct calls), then HTTP p50/p99 of
# POST /v2/fungible/route against a node started here (roles api,route; embedded PostgreSQL in a temp dir), next to the
# /health baseline of the same server. Usage: bench/route-bench.sh [seconds per run, default 10] [--live]
# NODE_JAVA_OPTS adds JVM options to the node (e.g. "-Xlog:gc:file=/tmp/gc.log").
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
LIVE="${2:-}"
# --live: the node also runs the devnet (live blocks) and quotes the devnet registry's InitiaDEX from its L1, read live
if [ "$LIVE" = "--live" ]; then
  NODE_ARGS="-Dweft.node.roles=api,route,devnet -Dweft.devnet.mode=live -Dweft.route.registries=conf/registry/devnet.json"
else
  NODE_ARGS="-Dweft.node.roles=api,route -Dweft.route.registries=conf/registry/mainnet.json"
fi
mvn -B -q -ntp package -DskipTests
mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
WORK="$(mktemp -d)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
java ${NODE_JAVA_OPTS:-} $NODE_ARGS -Dweft.http.port="$PORT" -Dweft.database.data_dir="$WORK/pg" -Dweft.database.embedded_fsync=false \
  -Dweft.log.level=warn -Dweft.route.reload_scan_interval=0 -Dweft.rate_limit.enabled=false \
  -jar target/weft.jar > "$WORK/node.log" 2>&1 &
NODE=$!
trap 'kill $NODE 2>/dev/null || true; wait $NODE 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break
  kill -0 $NODE 2>/dev/null || { echo "the node did not start:"; cat "$WORK/node.log"; exit 1; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$PORT/health" >/dev/null || { echo "the node did not answer /health:"; cat "$WORK/node.log"; exit 1; }
mkdir -p bench/results
OUT="bench/results/route-$(date +%Y%m%dT%H%M%S).txt"
java -cp "target/classes:target/test-classes:$(cat target/test-cp.txt)" dev.weft.bench.RouteBench \
  --url "http://127.0.0.1:$PORT" --seconds "$SECONDS_PER_RUN" $LIVE | tee "$OUT"
if ! kill -0 $NODE 2>/dev/null || grep -q "failed requests" "$OUT"; then
  echo "the node failed during the run; its log:"; tail -50 "$WORK/node.log"; exit 1
fi
