#!/usr/bin/env bash
# Push: a node indexing a live devnet, followed by 1000 WebSocket subscribers on /v1/events/ws (every event, from the
# head), then by 100; prints the events delivered per second to all of them, and the p50/p99/max latency from a
# commit's notification (weft.updates.events, published as the commit answered) to the event's arrival.
#   bench/event-push.sh
#   bench/event-push.sh -Dbench.subscribers=2000 -Dbench.seconds=30 -Dbench.txs_per_block=20
# Goal: p99 commit → delivery <= 100 ms at 100 subscribers.
# Output goes to stdout and bench/results/event-push-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.EventPushBench event-push "$@"
