#!/usr/bin/env bash
# The transfer tracker catching up on a chain against a far node: its scan cursor moved 6 000 blocks (× 20 txs) behind
# the head, one open transfer on the chain, then a tracker alone scans back to the head from a devnet answering at once
# and from one with the same history answering after 200 ms (devnet.faults.latency); both devnets keep their whole
# history, generated and warmed before timing. A first catch-up, not counted, warms the JIT (the node shares this JVM).
# Prints each run's blocks/s, whole and over the second half of the chain, and their ratios to the no-latency run.
#   bench/track-latency.sh                                     # 6 000 blocks, latencies 0,200 ms
#   bench/track-latency.sh -Dbench.blocks=3000 -Dbench.latencies=0,50,200,0,200
# Goal: >= 0.9 of the no-latency rate at 200 ms.
# Output goes to stdout and bench/results/track-latency-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.TrackLatencyBench track-latency "$@"
