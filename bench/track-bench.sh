#!/usr/bin/env bash
# Transfer tracking at scale on the multi-chain devnet: N transfers (60 % direct IBC, 20 % two-hop PFM, 20 % OP
# deposits) broadcast, tracked at once and followed until final, by a node started in this JVM (roles devnet, track,
# api; embedded PostgreSQL). Prints the tracker's requests to the chains per block while they are in flight, and the
# delay between the final on-chain event becoming visible and the status turning final, next to the poll interval.
# Goal: the status is final within one poll interval of the final event.
# unknown_hashes random hashes that never appear are tracked alongside: the requests per block must not grow with them.
# Usage: bench/track-bench.sh [transfers=5000] [steady|burst] [rate=250 txs/s] [block_interval_ms=1000] [poll_interval_ms] [relayer_delay_ms=20000 (burst: 2 blocks)] [unknown_hashes=0]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp test-compile
mvn -B -q -ntp dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
mkdir -p bench/results
OUT="bench/results/track-$(date +%Y%m%dT%H%M%S).txt"
java -Xms1g -Xmx3g @conf/jvm.options -Dlogback.configurationFile=bench/logback-bench.xml \
  -cp "target/classes:target/test-classes:$(cat target/test-cp.txt)" dev.weft.bench.TrackBench "$@" 2>&1 \
  | grep -v ' WARN \| INFO ' | tee "$OUT"
