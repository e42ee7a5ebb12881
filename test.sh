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

# Two cores: the CPython tests that need no browser (in two halves: the shell's under tests/web,
# and the rest) and the engine suite under Pyodide run side by side (the Pyodide suite is the
# shortest; the halves then have a core each); the browser tests then run alone (a page and its
# AI worker use both). Each pytest keeps its own temporary directory.
logs="$(mktemp -d)"
echo "== test.sh: pytest without a browser (CPython, two halves) || engine tests under Pyodide (Node)"
python3 -m pytest tests/web -q -p no:cacheprovider -m "not browser" --basetemp="$logs/tmp-web" > "$logs/cpython-web.log" 2>&1 &
web_pid=$!
python3 -m pytest tests --ignore=tests/web -q -p no:cacheprovider -m "not browser" --basetemp="$logs/tmp-rest" > "$logs/cpython.log" 2>&1 &
cpython_pid=$!
pyodide_status=0
bash tests/pyodide/run.sh > "$logs/pyodide.log" 2>&1 || pyodide_status=$?
cpython_status=0
wait "$web_pid" || cpython_status=$?
wait "$cpython_pid" || cpython_status=$?
echo "-- pytest without a browser (CPython): tests/web"
cat "$logs/cpython-web.log"
echo "-- pytest without a browser (CPython): the rest"
cat "$logs/cpython.log"
echo "-- engine tests under Pyodide (Node)"
cat "$logs/pyodide.log"

# The browser tests run in two pytest-xdist workers (DICEHALL_BROWSER_WORKERS=1 for one): most of
# a browser test's time is a page waiting (taps at a person's pace, a computer's paced steps, a
# boot). A test marked `alone` (it asserts on time, or it has several phones: tests/browser/
# conftest.py) runs while the other worker runs nothing (tests/browser/dicehall_browser_share.py).
# Timed on 2026-12-06: 145 tests in 11 min 38 s in two workers (10 min 4 s before the phones'
# tests were `alone`), against 13-14 min in one. The multi-phone room tests were made `alone`
# after a clean-clone run in two workers had failed the three-phone lobby test (no enabled
# Cephalopod place button on a player's phone for 30 s).
workers="${DICEHALL_BROWSER_WORKERS:-2}"
parallel=()
if [ "$workers" != 1 ]; then
  parallel=(-n "$workers" --dist worksteal)
fi
echo "== test.sh: pytest browser tests (Chromium, $workers worker(s))"
browser_status=0
python3 -m pytest tests -q -p no:cacheprovider -m browser ${parallel[@]+"${parallel[@]}"} --durations=15 -rR \
  || browser_status=$?
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
