#!/usr/bin/env bash
# Fetches the external tools the tests need into the project-local cache .tools/ (git-ignored); nothing is installed
# into the system. Each directory tools/npm/<name>/ is one Node toolset: a package.json with exact versions and its
# committed package-lock.json (integrity hashes), installed with `npm ci` into .tools/npm/<name>/node_modules; a
# toolset's own postinstall script (e.g. browser/unpack.mjs) runs there. A toolset is skipped when the hash of its
# directory is the one recorded at its last successful fetch, so a warm run touches no network.
#   tools/fetch.sh           fetch what changed
#   tools/fetch.sh --force   fetch every toolset again
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.tools/npm"
force=false
case "${1:-}" in
  --force) force=true ;;
  "") ;;
  *) echo "usage: tools/fetch.sh [--force]" >&2; exit 2 ;;
esac

for cmd in node npm sha256sum flock; do
  command -v "$cmd" >/dev/null || { echo "tools/fetch.sh: '$cmd' is not on PATH (Node.js with npm is required)" >&2; exit 1; }
done
mkdir -p "$cache"
exec 9>"$root/.tools/fetch.lock"
flock 9 # parallel runs (several checkouts' test commands) wait instead of racing on one directory

status=0
for src in "$root"/tools/npm/*/; do
  src="${src%/}"
  name="$(basename "$src")"
  [[ -f "$src/package.json" ]] || continue
  if [[ ! -f "$src/package-lock.json" ]]; then
    echo "tools/fetch.sh: $name: tools/npm/$name/package-lock.json is missing (commit it: npm install --package-lock-only there)" >&2
    status=1; continue
  fi
  hash="$(cd "$src" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
  dest="$cache/$name"
  if ! $force && [[ -d "$dest/node_modules" && "$(cat "$dest/.fetched" 2>/dev/null)" == "$hash" ]]; then
    echo "tools/fetch.sh: $name: up to date"
    continue
  fi
  echo "tools/fetch.sh: $name: npm ci into .tools/npm/$name"
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -R "$src/." "$dest/"
  log="$cache/$name.log"
  if (cd "$dest" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error) >"$log" 2>&1; then
    echo "$hash" >"$dest/.fetched"
  else
    echo "tools/fetch.sh: $name: npm ci failed (offline, or the registry refused); see $log:" >&2
    tail -n 20 "$log" >&2
    status=1
  fi
done
exit $status
