#!/usr/bin/env bash
# Latency-bound catch-up: the same devnet history ingested from empty with 0, 50 and 200 ms added to every answer of the
# devnet's HTTP servers (devnet.faults.latency, a node across a network), each into a fresh embedded PostgreSQL, with
# the default configuration, after one warm-up ingestion that is not counted (the node shares this JVM, so the first
# run would otherwise pay the JIT for the others); prints each run's blocks/s, whole and over the second half of the
# chain, and their ratios to the no-latency run.
#   bench/ingest-latency.sh                                  # 3 000 blocks × 20 txs, latencies 0,50,200 ms
#   bench/ingest-latency.sh -Dbench.blocks=12000 -Dbench.latencies=0,200,0,200 -Dbench.warmup_blocks=6000
# Goal: >= 0.9 of the no-latency rate at 50 and 200 ms (the fetch window adapts to the round trip).
# Output goes to stdout and bench/results/ingest-latency-<time>.txt.
# The node (in this JVM) gets a 4 GB heap, less than `java -jar` gives it by default on this 24 GB machine (a quarter):
# against a far node its window holds ~200 MB of heights for over a second, and in 1 GB G1 copied them young to old at
# 7-9 s of CPU per far run (1.4-1.9 s in 4 GB). A later -Xmx among the options wins.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.IngestLatencyBench ingest-latency -Xmx4g "$@"
