#!/usr/bin/env bash
# Ingestion and read benchmark: a devnet in history mode (its own JVM) indexed into a fresh embedded PostgreSQL by a
# real node, then the raw bulk insert of the same rows and the API against the same SQL on a pool, all in one run.
#   bench/ingest-read.sh                          # 12 000 blocks × 20 txs (≈ 216 000 txs), 8 clients, 10 s per read query
#   bench/ingest-read.sh -Dbench.blocks=20000     # any bench.* property of dev.weft.bench.IngestReadBench
# Goals: ingest >= 10 000 txs/s on 2 cores and >= 0.5 of the raw bulk insert of the same rows; reads >= 0.7 of the
# same SQL run directly, p99 < 50 ms at 8 concurrent clients. Output goes to stdout and bench/results/ingest-read-<time>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt > /dev/null
mkdir -p bench/results
out="bench/results/ingest-read-$(date +%Y%m%d-%H%M%S).txt"
java -Xmx1g "$@" -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  -Dhazelcast.logging.type=slf4j -Dlogback.configurationFile=bench/logback-bench.xml \
  dev.weft.bench.IngestReadBench | tee "$out"
