#!/usr/bin/env bash
# Shared by the benchmark scripts: builds the test classes and their classpath, then runs a bench main class with the
# bench logging, writing its output to stdout and bench/results/<name>-<time>.txt.
#   bench/run-main.sh <main class> <name> [java options…]
set -euo pipefail
cd "$(dirname "$0")/.."
main="$1"
name="$2"
shift 2
mvn -B -q -ntp -DskipTests test-compile
mvn -B -q -ntp dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench-classpath.txt
mkdir -p bench/results
out="bench/results/$name-$(date +%Y%m%d-%H%M%S).txt"
java -Xmx1g @conf/jvm.options "$@" -cp "target/test-classes:target/classes:$(cat target/bench-classpath.txt)" \
  -Dhazelcast.logging.type=slf4j -Dlogback.configurationFile=bench/logback-bench.xml \
  "$main" | tee "$out"
