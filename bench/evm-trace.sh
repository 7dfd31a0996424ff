#!/usr/bin/env bash
# EVM tracer benchmark: a devnet in history mode (its own JVM) indexed into fresh embedded PostgreSQL databases by real
# nodes: both roles together from empty, as the default run does (how long after ingestion the internal txs are caught
# up; also the JIT warm-up), then block ingestion alone (the baseline), then in turn, twice (-Dbench.pairs), the tracer
# alone over a copy of what was ingested (internal txs/s, and its rate in blocks of chain per second as a ratio to
# ingestion's) and over another copy from a second devnet that answers after 200 ms (-Dbench.far_latency_ms; 0 skips
# it): its rate as a ratio to the near run just before it, whole and over the second half of the chain (the adaptive
# window against a far node).
#   bench/evm-trace.sh                              # 18 000 blocks × 20 txs
#   bench/evm-trace.sh -Dbench.blocks=6000          # any bench.* property of dev.weft.bench.EvmTraceBench
# Goals: the tracer keeps up with ingestion (ratio ≥ 1), so /status.internal_tx_height trails height by seconds; against
# the far node ≥ 0.9 of its near rate once its window has adapted (the second half).
# Output goes to stdout and bench/results/evm-trace-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.EvmTraceBench evm-trace "$@"
