#!/usr/bin/env bash
# The one command that runs every Dice Hall test on a fresh machine:
#   bash test.sh
# installs test dependencies (pip, npm, Chromium via apt when root), builds dist/,
# runs pytest over tests/ (engine + browser + the rest), then the engine suite under Pyodide.
set -euo pipefail
cd "$(dirname "$0")"

echo "== test.sh: dependencies"
if grep -q '^test *=' pyproject.toml 2>/dev/null; then
  python3 -m pip install -q -e '.[test]'
else
  python3 -m pip install -q pytest playwright hypothesis
fi
python3 -c 'import playwright' 2>/dev/null || python3 -m pip install -q playwright
npm ci --no-audit --no-fund --loglevel=error
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    echo "test.sh: /usr/bin/chromium missing and not root (apt-get install chromium)" >&2
    exit 1
  fi
fi
# Browser tests must run here, never be skipped for a missing browser.
export DICEHALL_REQUIRE_BROWSER=1

echo "== test.sh: build"
python3 build.py

echo "== test.sh: pytest (engine, front-end helpers, browser)"
status=0
python3 -m pytest tests -q -p no:cacheprovider || status=$?

echo "== test.sh: engine tests under Pyodide (Node)"
bash tests/pyodide/run.sh || status=$?

if [ "$status" != 0 ]; then
  echo "test.sh: FAILED (exit $status)" >&2
fi
exit "$status"
