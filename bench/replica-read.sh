#!/usr/bin/env bash
# Read-replica benchmark: a PostgreSQL primary and a streaming hot standby of it (both from the embedded binaries), the
# fixture chain indexed into the primary, then the same closed-loop API loads against a node reading the primary and a
# node reading the standby (database.read_urls), in the same run.
#   bench/replica-read.sh                          # 2 000 blocks, 4 clients, 10 s per load
#   bench/replica-read.sh -Dbench.clients=8        # any bench.* property of dev.weft.bench.ReplicaReadBench
# On one machine both servers share the cores: the ratio says what a replica costs per read (expect ~1), not what a
# second machine adds. Output goes to stdout and bench/results/replica-read-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.ReplicaReadBench replica-read "$@"
