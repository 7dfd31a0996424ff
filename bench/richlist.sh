#!/usr/bin/env bash
# Rich-list benchmark: a devnet in history mode (its own JVM) indexed by a node into a fresh embedded PostgreSQL, then
# the rich list applied from the stored transfer rows (deltas/s, next to the ingestion rate of the same run), then the endpoint of
# a token with 100 000 holders seeded into the table, through the API against the same SQL on a pool.
#   bench/richlist.sh                              # 4 000 blocks × 20 txs, 100 000 holders, 8 clients, 10 s per read query
#   bench/richlist.sh -Dbench.blocks=8000          # any bench.* property of dev.weft.bench.RichListBench
# Goals: the rich list applies blocks at least as fast as ingestion indexes them (ratio >= 1); the endpoint's first
# page serves >= 0.7 of the raw SQL rate with p99 < 50 ms at 8 clients (random deep pages cost their offset, as in
# rollytics). Output goes to stdout and bench/results/richlist-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.RichListBench richlist "$@"
