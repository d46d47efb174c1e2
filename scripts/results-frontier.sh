#!/bin/sh
# results-frontier.sh - the first layers of boards too big for the two-bit
# BFS, by `slide frontier`, into results/frontier/ (called by results.sh).
#
#   sh scripts/results-frontier.sh        4x4, 3x5 and 5x5 to the depths below
#   FRONTIER_RUNS="4x4:30 5x5:25" sh scripts/results-frontier.sh
#
# A board whose results/frontier/B.csv already reaches the depth asked is
# kept (delete it to search again).  Each run checkpoints every layer into
# $FRONTIER_DIR/slide-frontier-B (default /tmp) and continues from there when
# started again, so a long run can be stopped (SIGINT) and resumed; steps
# that do not fit FRONTIER_MEMORY (default 7G) go to temporary files in the
# same directory.  Writes B.csv (provenance, then distance,count) and
# B.progress.txt (one line per layer: time, bytes per board, disk), and
# summary.csv; every count is compared with the published terms in
# tests/data (OEIS A089484, A346737, A090031); a mismatch fails.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
runs=${FRONTIER_RUNS:-"4x4:28 3x5:31 5x5:22"}
dir=${FRONTIER_DIR:-/tmp}
memory=${FRONTIER_MEMORY:-7G}
out=results/frontier
mkdir -p "$out"

# published B: the corner-goal counts of B from tests/data, comma-separated
published() {
    awk -F'\t' -v b="$1" '
        /^#/ { next }
        $1 == b && $2 == "corner" { print (NF >= 6 ? $5 : $3); exit }
    ' tests/data/histograms.tsv tests/data/partial-histograms.tsv
}

# depth_of CSV: the last distance in a results file (-1 if none)
depth_of() {
    [ -s "$1" ] || { echo -1; return; }
    grep -v '^#' "$1" | awk -F, 'NR > 1 { d = $1 } END { print (d == "" ? -1 : d) }'
}

for run in $runs; do
    b=${run%:*}
    depth=${run#*:}
    f="$out/$b"
    if [ "$(depth_of "$f.csv")" -ge "$depth" ]; then
        echo "results-frontier: $f.csv reaches distance $depth; kept" >&2
        continue
    fi
    ck="$dir/slide-frontier-$b"
    if [ -e "$ck/state" ]; then
        mode="--resume $ck"
    else
        mode="--checkpoint $ck"
    fi
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "results-frontier: $b to distance $depth (load average $load)" >&2
    nice -n 10 "$SLIDE" frontier "$b" --max-depth "$depth" --format csv --provenance \
        --progress $mode --temp-dir "$ck" --max-memory "$memory" \
        > "$f.csv.tmp" 2> "$f.log"
    echo "# load average: $load before the run, $(cut -d' ' -f1-3 /proc/loadavg) after" >> "$f.log"
    mv "$f.csv.tmp" "$f.csv"
    grep '^slide: ' "$f.log" > "$f.progress.txt" || true
    grep -v '^slide: ' "$f.log" > "$f.txt" || true
    rm -f "$f.log"
done

summary="$out/summary.csv.new"
echo "board,distance,boards,last_layer,bytes_per_board,wall_s,published_terms,match" > "$summary"
for run in $runs; do
    b=${run%:*}
    f="$out/$b"
    [ -s "$f.csv" ] || continue
    bpb=$(sed -n 's/^layer [0-9]*: \([0-9.]*\) bytes per board.*/\1/p' "$f.txt")
    wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$f.txt")
    grep -v '^#' "$f.csv" | awk -F, -v b="$b" -v pub="$(published "$b")" -v bpb="$bpb" \
        -v wall="$wall" '
        NR == 1 { next }
        { c[$1] = $2; total += $2; d = $1 }
        END {
            n = split(pub, p, ",")
            m = "yes"
            for (i = 1; i <= n && i <= d + 1; i++) if (p[i] != c[i - 1]) m = "NO"
            if (n < d + 1) m = m " (" n " terms published)"
            printf "%s,%d,%.0f,%.0f,%s,%s,%d,%s\n", b, d, total, c[d], bpb, wall,
                   (n < d + 1 ? n : d + 1), m
        }' >> "$summary"
done
mv "$summary" "$out/summary.csv"
if grep -q ',NO' "$out/summary.csv"; then
    echo "results-frontier: a layer disagrees with the published counts:" >&2
    grep ',NO' "$out/summary.csv" >&2
    exit 1
fi
