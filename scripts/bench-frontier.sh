#!/bin/sh
# bench-frontier.sh - speed and memory of `slide frontier` beside the
# two-bit BFS (`slide bfs`) on the same board, and deeper partial searches.
# Not a test: figures only, though the two histograms (and radius and
# antipodes) must be equal or the bench fails.
#
#   sh scripts/bench-frontier.sh       3x4 both ways; 4x4 to distance 24
#   FRONTIER_BENCH="3x4 2x6" FRONTIER_PARTIAL="4x4:26 5x5:20" sh scripts/bench-frontier.sh
#
# Output: a Markdown table on stdout (board, program, depth, wall s, CPU s,
# boards/s, peak RSS MB, bytes per board of the last layer), the load average
# before and after each run (the machine may be shared), and the machine.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-build/slide}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"
[ -x /usr/bin/time ] || { echo "bench-frontier: needs /usr/bin/time" >&2; exit 1; }
full=${FRONTIER_BENCH:-3x4}
partial=${FRONTIER_PARTIAL:-4x4:24}

# run NAME BOARD DEPTH CMD...: one timed run; a table row
run() {
    name=$1 board=$2 depth=$3
    shift 3
    load0=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%e %U %S %M' -o "$OUT/time" "$@" > "$OUT/$name-$board.csv" \
        2> "$OUT/$name-$board.err"
    load1=$(cut -d' ' -f1 /proc/loadavg)
    set -- $(cat "$OUT/time")
    boards=$(grep -v '^#' "$OUT/$name-$board.csv" | awk -F, 'NR > 1 { s += $2 } END { printf "%.0f", s }')
    bpb=$(sed -n 's/^layer [0-9]*: \([0-9.]*\) bytes per board.*/\1/p' "$OUT/$name-$board.err")
    awk -v n="$name" -v b="$board" -v d="$depth" -v w="$1" -v u="$2" -v s="$3" -v m="$4" \
        -v boards="$boards" -v bpb="${bpb:--}" -v l0="$load0" -v l1="$load1" 'BEGIN {
        printf "| %s | %s | %s | %.1f | %.1f | %.2f M | %.1f | %s | %s / %s |\n", b, n, d, w,
               u + s, boards / (w > 0 ? w : 1) / 1e6, m / 1000, bpb, l0, l1 }'
}

echo "| board | program | distance | wall s | CPU s | boards/s | peak RSS MB | bytes/board (last layer) | load before / after |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
for b in $full; do
    run bfs "$b" all "$SLIDE" bfs "$b" --format csv --no-progress
    run frontier "$b" all "$SLIDE" frontier "$b" --format csv --no-progress
    cmp -s "$OUT/bfs-$b.csv" "$OUT/frontier-$b.csv" ||
        { echo "bench-frontier: $b histograms differ" >&2; exit 1; }
    for k in radius antipodes; do
        a=$(grep "^$k" "$OUT/bfs-$b.err" | head -1)
        f=$(grep "^$k" "$OUT/frontier-$b.err" | head -1)
        [ "$a" = "$f" ] || { echo "bench-frontier: $b $k: '$a' vs '$f'" >&2; exit 1; }
    done
    sed -n '/^antipodes/,/^layer/p' "$OUT/bfs-$b.err" | grep '^  [^.]' > "$OUT/a-bfs"
    sed -n '/^antipodes/,/^layer/p' "$OUT/frontier-$b.err" | grep '^  [^.]' > "$OUT/a-fr"
    cmp -s "$OUT/a-bfs" "$OUT/a-fr" || { echo "bench-frontier: $b antipodes differ" >&2; exit 1; }
done
for p in $partial; do
    b=${p%:*} d=${p#*:}
    run frontier "$b" "$d" "$SLIDE" frontier "$b" --max-depth "$d" --format csv --no-progress
done
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $("$SLIDE" --version | head -1)"
