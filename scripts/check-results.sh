#!/bin/sh
# check-results.sh [--small] [--jobs N] - regenerate results/ into a
# temporary directory and compare every table with the committed one,
# masking what legitimately changes from run to run: provenance lines
# ("# ", "% ", "> "), lines with wall times ("wall ..."), and the wall_s
# column of the summary.  Exit 0 when they agree; otherwise print the
# differences and exit 1.
#
#   (default)  every part of `make results` but the big boards (2x7, 7x2:
#              and the frontier runs of 4x4, 3x5, 5x5, hours of CPU, whose
#              counts results-frontier.sh compares with OEIS itself;
#              their search is checked by scripts/check-search-code.sh
#              instead): the histograms and antipodes up to 3x4 and 2x6,
#              the parity table, the heuristic tables, the value
#              distributions and KRE predictions of the 15 puzzle (part kre:
#              the pattern databases in PDB_DIR, built when missing); tens
#              of minutes
#              (`make check-results`, not in CI)
#   --small    only the boards up to 2x5 and the 3x3 and 2x5 heuristic
#              tables: the drift test of `make test` (tests/test_results.c)
set -eu
cd "$(dirname "$0")/.."
jobs=1
small=0
while [ $# -gt 0 ]; do
    case $1 in
    --small) small=1; shift ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    *) echo "usage: check-results.sh [--small] [--jobs N]" >&2; exit 2 ;;
    esac
done
if [ $small = 1 ]; then
    parts="hist-small hist-3x3c heur-3x3 heur-2x5"
else
    parts=$(sh scripts/results.sh --list | grep -vx -e big -e frontier)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the check compares code with committed files: a dirty tree is allowed here
ALLOW_DIRTY=1 sh scripts/results.sh --jobs "$jobs" --out "$tmp/new" $parts 2>"$tmp/log" ||
    { cat "$tmp/log" >&2; exit 1; }
mask() {
    case $1 in
    */summary.csv) grep -v '^# ' "$1" | sed 's/,[^,]*$//' ;; # drop wall_s
    *) grep -v -e '^# ' -e '^% ' -e '^> ' -e '^wall ' "$1" ;;
    esac
}
status=0
checked=0
for f in "$tmp"/new/summary.csv "$tmp"/new/histograms/* "$tmp"/new/antipodes/* \
         "$tmp"/new/heuristics-* "$tmp"/new/joint/* "$tmp"/new/parity.csv \
         "$tmp"/new/hdist-* "$tmp"/new/korf100-kre* "$tmp"/new/kre.md; do
    [ -f "$f" ] || continue
    case $f in */summary.md | */summary.tex) continue ;; esac
    rel=${f#"$tmp"/new/}
    checked=$((checked + 1))
    if [ ! -f "results/$rel" ]; then
        echo "results/$rel is missing (run make results)"
        status=1
        continue
    fi
    mask "results/$rel" > "$tmp/committed"
    mask "$f" > "$tmp/now"
    if [ "$rel" = summary.csv ]; then
        # the committed summary may have more boards: every row made here must be there
        if grep -Fxv -f "$tmp/committed" "$tmp/now" > "$tmp/extra"; then
            echo "results/summary.csv lacks or differs in:"; cat "$tmp/extra"; status=1
        fi
    else
        diff -u --label "results/$rel" --label "regenerated" "$tmp/committed" "$tmp/now" ||
            status=1
    fi
done
[ "$status" = 0 ] && echo "results/ agrees with the code: $checked files compared ($(echo $parts))"
exit $status
