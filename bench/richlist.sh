#!/usr/bin/env bash
# Rich-list benchmark: a devnet in history mode (its own JVM) indexed by a node into a fresh embedded PostgreSQL, then
# the rich list applied from the stored txs (deltas/s, next to the ingestion rate of the same run), then the endpoint of
# a token with 100 000 holders seeded into the table, through the API against the same SQL on a pool.
#   bench/richlist.sh                              # 4 000 blocks × 20 txs, 100 000 holders, 8 clients, 10 s per read query
#   bench/richlist.sh -Dbench.blocks=8000          # any bench.* property of dev.weft.bench.RichListBench
# Goals: the rich list applies blocks at least as fast as ingestion indexes them (ratio >= 1); the endpoint serves
# >= 0.7 of the raw SQL rate with p99 < 50 ms at 8 clients. Output goes to stdout and bench/results/richlist-<time>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B -DskipTests test-compile
mvn -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench-classpath.txt > /dev/null
mkdir -p bench/results
out="bench/results/richlist-$(date +%Y%m%d-%H%M%S).txt"
java -Xmx1g "$@" -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  -Dhazelcast.logging.type=slf4j -Dlogback.configurationFile=bench/logback-bench.xml \
  dev.weft.bench.RichListBench | tee "$out"
