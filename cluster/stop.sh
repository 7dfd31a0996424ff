#!/usr/bin/env bash
# Stops the cluster cluster/start.sh started, by the process ids it recorded: SIGTERM, then SIGKILL after 30 s.
# cluster/stop.sh node2 stops only that node (to try a failover).
set -uo pipefail
cd "$(dirname "$0")/.."
RUN=${WEFT_CLUSTER_DIR:-cluster/run}
[ -s "$RUN/pids" ] || { echo "no running cluster recorded in $RUN/pids"; exit 0; }
only=${1:-}
keep=()
# stop the named nodes first and node0 (database) last
mapfile -t lines < <(sort -r -k2 "$RUN/pids")
for line in "${lines[@]}"; do
  pid=${line%% *}; name=${line#* }
  if [ -n "$only" ] && [ "$name" != "$only" ]; then keep+=("$line"); continue; fi
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    echo "stopped $name (pid $pid)"
  fi
done
if [ ${#keep[@]} -gt 0 ]; then printf '%s\n' "${keep[@]}" > "$RUN/pids"; else : > "$RUN/pids"; fi
