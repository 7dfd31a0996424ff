#!/usr/bin/env bash
# Long-history benchmark: a devnet history (its own JVM) ingested from empty into a fresh embedded PostgreSQL with the
# default configuration, then the EVM tracer and the rich list alone over it, then every list endpoint at 8 clients.
#   bench/long-history.sh                                        # 100 000 blocks × 20 txs (≈ 2M txs)
#   bench/long-history.sh -Dbench.blocks=5000 -Dbench.read_seconds=3   # a small run: its estimate of the full run's duration
# Goals: the rate over the last tenth of the chain >= 0.85 of the 10–20 % tenth; a flat live heap per role; PostgreSQL
# connections within database.pool_size; every queue and window bounded; list reads p99 < 50 ms and API/SQL >= 0.8.
# Output goes to stdout and bench/results/long-history-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.LongHistoryBench long-history "$@"
