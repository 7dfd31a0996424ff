#!/usr/bin/env bash
# Multi-chain benchmark: the devnet's three chains (its own JVM) ingested by one node, each alone into a fresh embedded
# PostgreSQL, then all three at once, in one run.
#   bench/multichain.sh                                   # 3 chains × 3000 blocks × 20 txs
#   bench/multichain.sh -Dbench.blocks=1000               # any bench.* property of dev.weft.bench.MultiChainBench
#   bench/multichain.sh -Dbench.dead_chain=weft-move-1    # the two others alone against the same with that chain's node dead
# Goals: aggregate txs/s together >= 0.9 of the single-chain rates; with a dead chain, the others' rate >= 0.9 of theirs
# without it. Output goes to stdout and bench/results/multichain-<time>.txt.
exec "$(dirname "$0")/run-main.sh" dev.weft.bench.MultiChainBench multichain "$@"
