#!/usr/bin/env bash
# The transfer tracker catching up on a chain against a far node: its scan cursor moved 24 000 blocks (× 20 txs) behind
# the head, one open transfer on the chain, then a tracker alone scans back to the head from a devnet answering at once
# and from one with the same history answering after 200 ms (devnet.faults.latency), alternately, three times each; both
# devnets keep their whole history, generated and warmed before timing. A first catch-up from each devnet, not counted,
# warms the JITs (the node shares this JVM). Prints each run's blocks/s, over the whole run and from its first saved
# scan on, its ratio to the last no-latency run before it, the machine's idle CPU and each process's CPU during the run.
#   bench/track-latency.sh                                     # 24 000 blocks, latencies 0,200,0,200,0,200 ms
#   bench/track-latency.sh -Dbench.blocks=6000 -Dbench.latencies=0,50,0,200
#   bench/track-latency.sh -Dbench.track.scan_ahead_mb=16      # any integer tracker setting
# Goal: >= 0.9 of the no-latency rate at 200 ms.
# Output goes to stdout and bench/results/track-latency-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.TrackLatencyBench track-latency "$@"
