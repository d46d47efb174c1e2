#!/bin/sh
# python-tests.sh - the pytest suite of the Python package (python/tests)
# for make test: its own summary line last, "python: N passed, N failed"
# (pytest's skipped tests are named in its output, not counted), or ONE
# line "python tests skipped: why" when it cannot run here (no python3
# with numpy and Python.h, no pytest, or a sanitizer build).
# Environment (the Makefile sets it): SLIDE (the binary), SLIDE_PY (the
# folder `make python` built the package into), PYTHON (an interpreter to
# use instead of the one scripts/python-find.sh finds), SAN_FLAGS.
# Exit status 0 when nothing failed.
set -u
here=$(dirname "$0")
skip() {
    echo "python tests skipped: $1"
    exit 0
}
[ -z "${SAN_FLAGS:-}" ] ||
    skip "not under the sanitizers (the extension would need their runtime loaded first; make test runs them)"
py=$(sh "$here/python-find.sh" --quiet) ||
    skip "no python3 with numpy, setuptools and Python.h (make deps, or apt-get install python3-dev python3-numpy python3-setuptools python3-pytest)"
"$py" -c 'import pytest' >/dev/null 2>&1 ||
    skip "no pytest for $py (make deps, or apt-get install python3-pytest)"
pkg=${SLIDE_PY:-$(pwd)/build/python}
ls "$pkg"/slide/_slide*.so >/dev/null 2>&1 ||
    skip "the package is not built in $pkg (make python)"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
PYTHONPATH=$pkg PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest -q -p no:cacheprovider \
    "$here/../python/tests" 2>&1 | tee "$out"
# pytest's last line: "== 3 failed, 40 passed, 2 skipped in 9.1s ==" (any order)
last=$(grep -E '[0-9]+ (passed|failed|error|errors)' "$out" | tail -n 1)
count() { echo "$last" | sed -n "s/.*[^0-9]\([0-9][0-9]*\) $1.*/\1/p; s/^\([0-9][0-9]*\) $1.*/\1/p" | head -n 1; }
p=$(count passed)
f=$(count failed)
e=$(count error)
p=${p:-0} f=${f:-0} e=${e:-0}
f=$((f + e))
[ -z "$last" ] && f=1 # pytest broke before it could count
echo "python: $p passed, $f failed"
[ "$f" -eq 0 ]
