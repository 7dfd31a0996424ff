#!/usr/bin/env bash
# Ingestion and read benchmark: a devnet in history mode (its own JVM) indexed into a fresh embedded PostgreSQL by a
# real node, then the raw bulk insert of the same rows and the API against the same SQL on a pool, all in one run.
#   bench/ingest-read.sh                          # 12 000 blocks × 20 txs (≈ 216 000 txs), 8 clients, 10 s per read query
#   bench/ingest-read.sh -Dbench.blocks=20000     # any bench.* property of dev.weft.bench.IngestReadBench
#   bench/ingest-read.sh -Dbench.pg_statements=true  # also print PostgreSQL's costliest statements of the ingestion
#   bench/ingest-read.sh -Dbench.page_cache_mb=0     # tx list pages read from PostgreSQL on every request (no page cache)
# Goals: ingest/raw (the raw bulk insert of the same rows) >= 0.75 over the whole run and >= 0.85 over its second half;
# reads >= 0.8 of the same SQL run directly, p99 < 50 ms at 8 concurrent clients. Output goes to stdout and bench/results/ingest-read-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.IngestReadBench ingest-read "$@"
