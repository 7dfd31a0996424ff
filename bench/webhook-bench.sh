#!/usr/bin/env bash
# Webhook deliveries per second to a local receiver: a node (devnet in history mode, ingest, api; embedded PostgreSQL)
# indexes the blocks first, then webhooks with no filter deliver the whole log from sequence 0 to a Vert.x receiver in
# the same JVM that answers 200 at once.
#   bench/webhook-bench.sh                                   # 200 blocks × 4 txs, 4 webhooks
#   bench/webhook-bench.sh -Dbench.blocks=1000 -Dbench.webhooks=1
# Prints the deliveries per second, overall and per webhook. Output goes to stdout and bench/results/webhooks-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.WebhookBench webhooks "$@"
