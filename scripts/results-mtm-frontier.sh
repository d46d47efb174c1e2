#!/bin/sh
# results-mtm-frontier.sh - the first layers of 4x4 in the multi-tile metric
# by `slide frontier --metric mtm`, each beside OEIS A389728, into
# results/mtm/:
#
#   sh scripts/results-mtm-frontier.sh            4x4 to 20, 3x4 whole (the results)
#   MTM_FRONTIER_RUNS="4x4:21" sh scripts/results-mtm-frontier.sh
#   MTM_FRONTIER_RUNS="3x5:20 5x5:15" sh ...     boards nothing is published for
#   MTM_FRONTIER_RUNS="5x3:19" sh ...             beside frontier-3x5.csv (the transpose)
#
# For each run B:D: frontier-B.csv (provenance block, then distance,count),
# frontier-B.progress.txt (one line per layer: boards, neighbours, bytes per
# board, seconds, disk), frontier-B.txt (the summary: boards reached, the
# last layer's bytes per board, wall time, peak memory, and /usr/bin/time's
# CPU seconds and peak RSS, the load average before and after); then
# frontier-summary.md (every frontier-B.csv there, from this run or an
# earlier one): every distance with slide's count beside the
# published one (A389728 in tests/data/mtm-published.tsv for 4x4; for a
# board that slide bfs --metric mtm searched whole, results/mtm/B.csv; else,
# where frontier-CxR.csv exists, the transpose's counts: slide against
# itself, other ranks and another order of work), and whether they agree.  A disagreement fails the script (exit 1).
#
# Steps that do not fit MTM_FRONTIER_MEMORY (default 6G) go to temporary
# files in MTM_FRONTIER_DIR (default /tmp).  Refuses to run when src,
# include, the Makefile or scripts have uncommitted changes, or when
# build/slide was built from another commit, unless ALLOW_DIRTY=1 (the
# provenance then says -dirty).  THREADS: threads (default: nproc).
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
out=${OUT:-results/mtm}
runs=${MTM_FRONTIER_RUNS:-"4x4:20 3x4:99"}
dir=${MTM_FRONTIER_DIR:-/tmp}
memory=${MTM_FRONTIER_MEMORY:-6G}
threads=${THREADS:-$(nproc)}
if [ "${ALLOW_DIRTY:-0}" != 1 ]; then
    if [ -n "$(git status --porcelain -- src include Makefile scripts)" ]; then
        echo "results-mtm-frontier: uncommitted changes in src, include, Makefile or" \
             "scripts (commit them, or ALLOW_DIRTY=1)" >&2
        exit 1
    fi
    head=$(git rev-parse --short HEAD)
    if ! "$SLIDE" --version | grep -q "commit $head)"; then
        echo "results-mtm-frontier: $SLIDE was not built from $head (make, then run" \
             "again)" >&2
        exit 1
    fi
fi
mkdir -p "$out"

# published B: the counts to compare with, comma-separated, and their source
published() {
    if [ "$1" = 4x4 ]; then
        awk -F'\t' '/^#/ { next } $1 == "4x4" && $2 == "corner" { print $3; exit }' \
            tests/data/mtm-published.tsv
    elif [ -s "results/mtm/$1.csv" ]; then
        grep -v '^#' "results/mtm/$1.csv" | awk -F, 'NR > 1 { s = s (s == "" ? "" : ",") $2 }
                                             END { print s }'
    elif [ "$(transpose "$1")" != "$1" ] && [ -s "$out/frontier-$(transpose "$1").csv" ]; then
        grep -v '^#' "$out/frontier-$(transpose "$1").csv" |
            awk -F, 'NR > 1 { s = s (s == "" ? "" : ",") $2 } END { print s }'
    fi
}
source_of() {
    if [ "$1" = 4x4 ]; then echo "OEIS A389728"
    elif [ -s "results/mtm/$1.csv" ]; then echo "slide bfs --metric mtm (results/mtm/$1.csv)"
    elif [ "$(transpose "$1")" != "$1" ] && [ -s "$out/frontier-$(transpose "$1").csv" ]; then
        echo "the transpose $(transpose "$1") (frontier-$(transpose "$1").csv; slide against itself)"
    else echo "published (none known)"; fi
}
# RxC -> CxR: the same move graph (a board and its transpose), so the same
# histogram; a consistency check where nothing is published
transpose() { echo "${1#*x}x${1%x*}"; }

fail=0
for run in $runs; do
    b=${run%:*}
    depth=${run#*:}
    f="$out/frontier-$b"
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "results-mtm-frontier: $b to distance $depth (load average $load)" >&2
    /usr/bin/time -f "cpu: user %U s, system %S s; wall %e s; peak RSS %M KB" \
        nice -n 19 "$SLIDE" frontier "$b" --metric mtm --max-depth "$depth" --format csv \
        --provenance --progress --threads "$threads" --temp-dir "$dir" \
        --max-memory "$memory" > "$f.csv.tmp" 2> "$f.log"
    mv "$f.csv.tmp" "$f.csv"
    grep '^slide: distance' "$f.log" > "$f.progress.txt" || true
    {
        grep -v '^slide: distance' "$f.log" || true
        echo "load average: $load before the run, $(cut -d' ' -f1-3 /proc/loadavg) after"
    } > "$f.txt"
    rm -f "$f.log"
done

{
    echo "# The multi-tile metric by frontier search, term by term"
    echo
    echo "Made by scripts/results-mtm-frontier.sh ($(date -u +%Y-%m-%dT%H:%M:%SZ)); each"
    echo "count of results/mtm/frontier-B.csv beside the published one."
    for f in "$out"/frontier-*.csv; do
        [ -s "$f" ] || continue
        f=${f%.csv}
        b=${f##*/frontier-}
        echo
        echo "## $b, blank in a corner ($(sed -n 's/^# slide [^ ]* (\(commit [^)]*\))$/\1/p' "$f.csv" | head -1))"
        echo
        echo "| distance | slide frontier --metric mtm | $(source_of "$b") | agrees |"
        echo "|---:|---:|---:|---|"
        grep -v '^#' "$f.csv" | awk -F, -v pub="$(published "$b")" '
            NR == 1 { next }
            {
                n = split(pub, p, ",")
                want = ($1 + 1 <= n) ? p[$1 + 1] : "-"
                ok = want == "-" ? "(nothing to compare)" : (want == $2 ? "yes" : "NO")
                printf "| %d | %s | %s | %s |\n", $1, $2, want, ok
            }'
        echo
        grep -E '^(boards reached|radius|antipodes|wall|cpu|load|layer)' "$f.txt" | sed 's/^/    /'
    done
} > "$out/frontier-summary.md"
if grep -q '| NO |' "$out/frontier-summary.md"; then
    echo "results-mtm-frontier: a count disagrees (see $out/frontier-summary.md)" >&2
    fail=1
fi
exit $fail
