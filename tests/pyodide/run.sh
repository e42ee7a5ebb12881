#!/usr/bin/env bash
# Run tests/engine under Pyodide 314 (Python 3.14) in Node, offline after the first run.
#   bash tests/pyodide/run.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
WHEELS="${DICEHALL_PYODIDE_WHEELS:-.cache/pyodide-wheels}"
# Pure-Python wheels for Pyodide's Python 3.14 (hypothesis + sortedcontainers: property tests).
PKGS=(pytest==9.2.0 pluggy==1.7.0 iniconfig==2.3.1 packaging==26.4 pygments==2.21.0
      hypothesis==6.155.7 sortedcontainers==2.4.0)
if [ ! -f node_modules/pyodide/pyodide.mjs ]; then
  npm ci --no-audit --no-fund
fi
missing=0
for spec in "${PKGS[@]}"; do
  name="${spec%%==*}"; ver="${spec##*==}"
  compgen -G "$WHEELS/${name}-${ver}-*.whl" > /dev/null || missing=1
done
if [ "$missing" = 1 ]; then
  mkdir -p "$WHEELS"
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.14 \
    --implementation py -d "$WHEELS" "${PKGS[@]}"
fi
# Keep only the pinned versions so loadPackage never sees two of one package.
for f in "$WHEELS"/*.whl; do
  base="$(basename "$f")"; keep=0
  for spec in "${PKGS[@]}"; do
    name="${spec%%==*}"; ver="${spec##*==}"
    case "$base" in "${name}-${ver}-"*) keep=1;; esac
  done
  [ "$keep" = 1 ] || rm -f "$f"
done
DICEHALL_PYODIDE_WHEELS="$WHEELS" exec node tests/pyodide/run.mjs "$@"
