#!/usr/bin/env bash
# The one command that runs every Dice Hall test on a fresh machine:
#   bash test.sh
# installs test dependencies (pip, npm, Chromium via apt when root), builds dist/,
# runs pytest over tests/ without a browser next to the engine suite under Pyodide, then the
# browser tests.
set -euo pipefail
cd "$(dirname "$0")"

echo "== test.sh: dependencies"
if grep -q '^test *=' pyproject.toml 2>/dev/null; then
  python3 -m pip install -q -e '.[test]'
else
  python3 -m pip install -q pytest playwright hypothesis pytest-rerunfailures pytest-xdist
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

# Two cores. First the CPython tests that need no browser, in two pytest-xdist workers (a test
# file stays in one worker). Then the browser tests, in two workers too (DICEHALL_BROWSER_WORKERS=1
# for one): most of a browser test's time is a page waiting (taps at a person's pace, a
# computer's paced steps, a boot), so the engine suite under Pyodide (Node, one core) runs beside
# their first minutes. A test marked `alone` (it asserts on time, or it has several phones:
# tests/browser/conftest.py) runs while nothing else does: not the other worker's test, not the
# Pyodide suite (which shares the machine as a test does: tests/browser/dicehall_browser_share.py),
# and the `alone` tests come last.
# Timed on 2026-12-06 as it was before (the CPython tests in two halves beside the Pyodide suite,
# then the browser tests): 16 min 31 s on a clean clone, of which 4 min 48 s before the browser
# tests; in one worker the browser tests alone took 13-14 min.
logs="$(mktemp -d)"
workers="${DICEHALL_BROWSER_WORKERS:-2}"
parallel=()
if [ "$workers" != 1 ]; then
  parallel=(-n "$workers" --dist worksteal)
fi
export DICEHALL_MACHINE_DIR="$logs/machine"  # the lock the browser workers and the Pyodide suite share

echo "== test.sh: pytest without a browser (CPython, two workers)"
cpython_status=0
python3 -m pytest tests -q -p no:cacheprovider -m "not browser" -n 2 --dist loadfile \
  --basetemp="$logs/tmp-cpython" || cpython_status=$?

pyodide_status=0
if [ "$workers" = 1 ]; then
  # one browser worker holds no lock: the suites run one after the other
  echo "== test.sh: engine tests under Pyodide (Node)"
  bash tests/pyodide/run.sh || pyodide_status=$?
else
  python3 tests/browser/dicehall_browser_share.py "$DICEHALL_MACHINE_DIR" -- \
    bash tests/pyodide/run.sh > "$logs/pyodide.log" 2>&1 &
  pyodide_pid=$!
fi

echo "== test.sh: pytest browser tests (Chromium, $workers worker(s))"
browser_status=0
python3 -m pytest tests -q -p no:cacheprovider -m browser ${parallel[@]+"${parallel[@]}"} --durations=15 -rR \
  || browser_status=$?
if [ "$workers" != 1 ]; then
  wait "$pyodide_pid" || pyodide_status=$?
  echo "-- engine tests under Pyodide (Node), run beside the browser tests"
  cat "$logs/pyodide.log"
fi
rm -rf "$logs"

status=0
for part in "cpython:$cpython_status" "pyodide:$pyodide_status" "browser:$browser_status"; do
  if [ "${part#*:}" != 0 ]; then
    echo "test.sh: ${part%%:*} tests FAILED (exit ${part#*:})" >&2
    status=1
  fi
done
[ "$status" = 0 ] && echo "test.sh: all tests passed"
exit "$status"
