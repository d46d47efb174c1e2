#!/bin/sh
# make-test.sh BIN... - the suites of `make test` in order, then the
# closing line, always the last one printed:
#   N passed, N failed; nothing skipped
#   N passed, N failed; 2 suites skipped: browser tests, MPI tests
# with one "skipped: SUITE: why" line per skipped suite just before it.
#   1. the cmocka binaries BIN... (scripts/run-tests.sh: "ok NAME (N tests)",
#      a failure's output in full, "skip NAME: why" from a binary that
#      cannot run here, then "cmocka: N passed, N failed")
#   2. the browser tests (scripts/browser-tests.sh: "browser: N passed, N
#      failed" or "browser tests skipped: why")
#   3. the Python package's tests (scripts/python-tests.sh: "python: N
#      passed, N failed" or "python tests skipped: why")
# Environment (the Makefile sets it): SLIDE, SLIDE_MPI_BIN, HAVE_SERVE, and
# for the suites this build leaves out, SKIP_SERVE / SKIP_MPI (the test
# binaries) with SKIP_SERVE_WHY / SKIP_MPI_WHY.  RUN_TESTS, BROWSER_TESTS
# and PYTHON_TESTS name the three runners (default the scripts beside this
# one; a test of this script replaces them; PYTHON_TESTS set but empty
# leaves the Python suite out altogether).  Exit status 0 when nothing
# failed.
set -u
here=$(dirname "$0")
run_tests=${RUN_TESTS:-$here/run-tests.sh}
browser_tests=${BROWSER_TESTS:-$here/browser-tests.sh}
python_tests=${PYTHON_TESTS-$here/python-tests.sh}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
parts=""      # "cmocka 296, browser 10, python 60"
skipped=""    # suite names, ", " between
skip() { # suite why
    echo "skipped: $1: $2" >> "$tmp/skipped"
    skipped="$skipped${skipped:+, }$1"
}
add_part() { # name passed failed
    passed=$((passed + $2))
    failed=$((failed + $3))
    parts="$parts${parts:+, }$1 $2"
}

# 1. cmocka, streamed as it runs
{ sh "$run_tests" "$@"; echo $? > "$tmp/rc1"; } | tee "$tmp/cmocka"
p=$(sed -n 's/^cmocka: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/cmocka" | tail -n 1)
f=$(sed -n 's/^cmocka: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/cmocka" | tail -n 1)
if [ -z "$p" ]; then # the runner itself broke: one failure, not silence
    p=0 f=1
elif [ "$(cat "$tmp/rc1")" != 0 ] && [ "$f" = 0 ]; then
    f=1
fi
add_part cmocka "$p" "$f"
[ -n "${SKIP_SERVE:-}" ] && skip "server tests ($(echo $SKIP_SERVE | tr ' ' ','))" \
    "${SKIP_SERVE_WHY:-slide was built without the web server}"
[ -n "${SKIP_MPI:-}" ] && skip "MPI tests ($(echo $SKIP_MPI | tr ' ' ','))" \
    "${SKIP_MPI_WHY:-there is no MPI build}"
# "skip NAME: why" from binaries that ran but could not do their part here
# (once each: a binary may say it for each of its tests)
sed -n 's/^skip \([^:]*\): \(.*\)$/\1|\2/p' "$tmp/cmocka" | awk '!seen[$0]++' > "$tmp/inner"
while IFS='|' read -r name why; do
    skip "$name" "$why"
done < "$tmp/inner"

# A suite that prints "NAME: N passed, N failed" or "NAME tests skipped:
# why" (the browser and Python runners), streamed as it runs.
run_suite() { # name runner
    { sh "$2"; echo $? > "$tmp/rc-$1"; } | tee "$tmp/$1"
    line=$(grep "^$1: [0-9]* passed, [0-9]* failed" "$tmp/$1" | tail -n 1)
    why=$(sed -n "s/^$1 tests skipped: //p" "$tmp/$1" | tail -n 1)
    if [ -n "$why" ]; then
        skip "$1 tests" "$why"
    elif [ -n "$line" ]; then
        p=$(echo "$line" | sed "s/^$1: \([0-9]*\) passed, \([0-9]*\) failed.*/\1/")
        f=$(echo "$line" | sed "s/^$1: \([0-9]*\) passed, \([0-9]*\) failed.*/\2/")
        [ "$(cat "$tmp/rc-$1")" != 0 ] && [ "$f" = 0 ] && f=1
        add_part "$1" "$p" "$f"
    else # no summary: the suite broke before it could count
        add_part "$1" 0 1
    fi
}

# 2. the browser tests
run_suite browser "$browser_tests"

# 3. the Python package
[ -n "$python_tests" ] && run_suite python "$python_tests"

[ -f "$tmp/skipped" ] && cat "$tmp/skipped"
n=$(grep -c . "$tmp/skipped" 2>/dev/null || echo 0)
case $n in
0) tail="nothing skipped" ;;
1) tail="1 suite skipped: $skipped" ;;
*) tail="$n suites skipped: $skipped" ;;
esac
echo "$passed passed, $failed failed ($parts); $tail"
[ "$failed" -eq 0 ]
