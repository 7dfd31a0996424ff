#!/usr/bin/env bash
# What the devnet serves alone: generation + rendering cost per block, and blocks/s and txs/s over loopback HTTP for
# the four answers an indexer reads per block. Usage: bench/devnet.sh [blocks=3000] [txs_per_block=100] [concurrency=16]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q -B test-compile org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
  -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
exec java -Xms1g -Xmx2g -cp "target/classes:target/test-classes:$(cat target/bench.classpath)" dev.weft.bench.DevnetBench "$@"
