#!/bin/sh
# run-tests.sh BIN... - run cmocka test binaries in the order given and end
# with one summary line "cmocka: N passed, N failed" over all of them (make
# test's closing line, over every suite, comes from scripts/make-test.sh).
# A binary that crashes or prints no cmocka summary counts as one failed test.
# A test that cannot do its part here prints "skip: why"; the binary's line
# says how many did ("ok   NAME (5 tests, 3 skipped)") and each distinct
# reason follows once: "skip NAME: why".
set -u
passed=0
failed=0
crashed=""
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for bin in "$@"; do
    name=$(basename "$bin")
    "$bin" >"$out" 2>&1
    status=$?
    p=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test.*/\1/p' "$out" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test.*/\1/p' "$out" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        crashed="$crashed $name"
    fi
    k=$(grep -c '^skip: ' "$out")
    if [ "$f" -ne 0 ]; then
        cat "$out"
        echo "FAILED: $name" >&2
    elif [ "$k" -gt 0 ]; then
        echo "ok   $name ($p tests, $k skipped)"
    else
        echo "ok   $name ($p tests)"
    fi
    # a test that cannot run here says why in one line "skip: ...": once each
    sed -n "s/^skip: /skip $name: /p" "$out" | awk '!seen[$0]++'
    passed=$((passed + p))
    failed=$((failed + f))
done
[ -n "$crashed" ] && echo "crashed or no summary:$crashed" >&2
echo "cmocka: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
