#!/usr/bin/env bash
# What the devnet serves alone: CPU cost of generating a block and rendering the four answers an indexer reads per
# block (/block, /block_results, REST /txs/block, eth_getBlockReceipts), then blocks/s and txs/s over loopback HTTP,
# next to the /health baseline of the same server. Usage: bench/devnet.sh [blocks=3000] [txs_per_block=100] [in_flight=16]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp test-compile
mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
mkdir -p bench/results
OUT="bench/results/devnet-$(date +%Y%m%dT%H%M%S).txt"
java -Xms1g -Xmx2g @conf/jvm.options -Dweft.log.level=warn -cp "target/classes:target/test-classes:$(cat target/test-cp.txt)" \
  dev.weft.bench.DevnetBench "$@" 2>&1 | grep -v ' WARN \| INFO ' | tee "$OUT"
