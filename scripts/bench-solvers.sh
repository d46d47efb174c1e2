#!/bin/sh
# bench-solvers.sh [SEED] - figures for `slide solve --method layers` and
# `--method bibfs`, through the command line (part of `make bench`; also
# `make bench-solvers`; not a test):
#   1. layers on one random solvable n x n board, n = 10, 100, 1000: moves,
#      moves / n^3, the bound 8 n^3 + n^2 of layers.h, and the wall time of
#      `slide solve --method layers --count` (parsing included).  For n = 10
#      and 100 the moves are printed too (--moves; slide replays them to the
#      goal before printing) and their number must equal --count's.
#      BENCH_BIG=1 does the same for n = 1000 (2.7e9 moves: about 2.7 GB of
#      memory and a minute more).
#   2. the ratio of the layers length to the optimum, board by board:
#      3x3 (1000 boards) and 2x5 (200 boards) drawn uniformly from the
#      solvable boards, optimum from --method bibfs; 4x4: 5 boards reached by
#      random walks of 40 moves from the goal (so IDA* is quick), optimum from
#      --method ida.  Boards at the goal (optimum 0) are left out.
#   3. IDA* on one board with 1 and 2 threads (below).
# Every board comes from `slide scramble ... --seed SEED` (default 20240601),
# so a run is reproducible.  Takes about 30 s of one core, most of it the
# 1000 x 1000 board.  Output: three Markdown tables (BENCH_PARTS="layers ratio ida" chooses).
set -eu
cd "$(dirname "$0")/.."
seed=${1:-20240601}
SLIDE=${SLIDE:-build/slide}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"

now() { date +%s.%N; }

# layers_row N: one row of the first table
layers_row() {
    n=$1
    $SLIDE scramble "${n}x$n" --seed "$seed" > "$OUT/layers-$n.txt"
    t0=$(now)
    moves=$($SLIDE solve --method layers --count - < "$OUT/layers-$n.txt")
    t1=$(now)
    replayed=no
    if [ "$n" -le 100 ] || [ "${BENCH_BIG:-0}" = 1 ]; then
        printed=$($SLIDE solve --method layers --moves - < "$OUT/layers-$n.txt" |
                  tr -d '\n' | wc -c)
        if [ "$printed" -ne "$moves" ]; then
            echo "bench-solvers: $n x $n: --moves printed $printed moves, --count says $moves" >&2
            exit 1
        fi
        replayed=yes
    fi
    awk -v n="$n" -v m="$moves" -v t0="$t0" -v t1="$t1" -v r="$replayed" 'BEGIN {
        printf "| %d x %d | %.0f | %.4f | %.0f | %.2f | %s |\n", n, n, m, m / (n * n * n),
               8 * n * n * n + n * n, t1 - t0, r
    }'
}

# ratio_row SHAPE HOW OPTIMAL-METHOD SCRAMBLE-OPTIONS...: one row of the
# second table (HOW says in words how the boards were drawn)
ratio_row() {
    shape=$1 how=$2 method=$3
    shift 3
    $SLIDE scramble "$shape" --seed "$seed" "$@" > "$OUT/ratio-$shape.txt"
    t0=$(now)
    $SLIDE solve --method layers --size "$shape" --count - < "$OUT/ratio-$shape.txt" \
        > "$OUT/ratio-$shape.layers"
    t1=$(now)
    $SLIDE solve --method "$method" --size "$shape" --count - < "$OUT/ratio-$shape.txt" \
        > "$OUT/ratio-$shape.opt"
    t2=$(now)
    paste -d ' ' "$OUT/ratio-$shape.layers" "$OUT/ratio-$shape.opt" |
        awk -v s="$shape" -v how="$how" -v m="$method" -v t0="$t0" -v t1="$t1" -v t2="$t2" '
        $2 > 0 { q = $1 / $2; k++; sq += q; sl += $1; so += $2
                 if (k == 1 || q < lo) lo = q; if (q > hi) hi = q }
        END { printf "| %s | %s | %d | %.2f | %.2f | %.2f | %.1f | %.1f (%s) | %.2f | %.2f |\n",
                     s, how, k, sq / k, lo, hi, sl / k, so / k, m, t1 - t0, t2 - t1 }'
}

PARTS=" ${BENCH_PARTS:-layers ratio ida} " # BENCH_PARTS=ida: the third part alone
part() { case $PARTS in *" $1 "*) return 0 ;; esac; return 1; }

if part layers; then
echo "Layer-by-layer construction on a random solvable n x n board (slide scramble, seed $seed)"
echo
echo "| board | moves | moves/n^3 | bound 8n^3+n^2 | seconds (--count) | moves replayed |"
echo "|---|---:|---:|---:|---:|---|"
for n in 10 100 1000; do
    layers_row "$n"
done
fi
if part ratio; then
echo
echo "Layers length / optimum, board by board (seed $seed)"
echo
echo "| board | drawn (slide scramble) | boards | mean ratio | min | max | mean layers | mean optimum (method) | layers s | optimum s |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
ratio_row 3x3 "uniform solvable" bibfs --count 1000
ratio_row 2x5 "uniform solvable" bibfs --count 200
ratio_row 4x4 "random walk of 40 moves" ida --walk 40 --count 5
fi

# 3. IDA* on one board with 1 and 2 threads (--threads: the parallel search
#    of ida_parallel.h), on Korf's instances 4 and 10 (tests/data/korf100.txt;
#    over 1 CPU s each with --h lc), IDA_REPEATS runs per thread count,
#    alternating, medians.  The speedup is the median wall time of the
#    search (slide's seconds) on 1 thread over that on T; the CPU seconds
#    are the search's own (slide's cpu_seconds), so the generated nodes
#    per CPU second compare the work per node.  Every length must be the
#    published one.  The machine may be shared: the load average before and
#    after each board is printed, and a speedup on a loaded machine is not
#    an idle machine's.  Beside it, the speedup the CPU times predict for a
#    core per thread: the median CPU seconds on 1 thread over the median
#    cpu_critical on T (the serial parts plus, per threshold, the busiest
#    thread's CPU seconds; ida.h), which a shared machine disturbs less.
part ida || exit 0
IDA_BOARDS=${IDA_BOARDS:-4 10}
IDA_THREADS=${IDA_THREADS:-1 2}
IDA_REPEATS=${IDA_REPEATS:-3}
korf_board() { grep -v '^#' tests/data/korf100.txt | awk -F'\t' -v n="$1" '$1 == n { print $3, $4 }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo
echo "IDA* on one board, 1 and 2 threads (--h lc, Korf's 100: instances $IDA_BOARDS; $IDA_REPEATS runs per thread count, alternating; medians; $(nproc) cores)"
echo
echo "| instance | length | threads | search wall s | CPU s | speedup | critical-path CPU s | speedup from CPU | expanded | of them the last iteration | M generated per CPU s | load before | load after |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
for n in $IDA_BOARDS; do
    set -- $(korf_board "$n")
    board="$1 $2 $3 $4 $5 $6 $7 $8 $9 ${10} ${11} ${12} ${13} ${14} ${15} ${16}" published=${17}
    before=$(load)
    : > "$OUT/ida-$n.runs"
    r=0
    while [ "$r" -lt "$IDA_REPEATS" ]; do
        for t in $IDA_THREADS; do
            # fields: threads wall cpu expanded expanded_last generated length critical
            $SLIDE solve --size 4x4 --h lc --threads "$t" --format csv "$board" | tail -1 |
                sed 's/"[^"]*"/q/g' |
                awk -F, -v t="$t" '{ print t, $13, $16, $8, $17, $9, $5, $19 }' >> "$OUT/ida-$n.runs"
        done
        r=$((r + 1))
    done
    after=$(load)
    if awk -v p="$published" '$7 != p { exit 1 }' "$OUT/ida-$n.runs"; then :; else
        echo "bench-solvers: Korf's instance $n: a length differs from the published $published" >&2
        exit 1
    fi
    w1=$(awk '$1 == 1 { print $2 }' "$OUT/ida-$n.runs" | median)
    c1=$(awk '$1 == 1 { print $3 }' "$OUT/ida-$n.runs" | median)
    for t in $IDA_THREADS; do
        w=$(awk -v t="$t" '$1 == t { print $2 }' "$OUT/ida-$n.runs" | median)
        c=$(awk -v t="$t" '$1 == t { print $3 }' "$OUT/ida-$n.runs" | median)
        k=$(awk -v t="$t" '$1 == t { print $8 }' "$OUT/ida-$n.runs" | median)
        awk -v t="$t" -v n="$n" -v p="$published" -v w="$w" -v c="$c" -v w1="$w1" -v k="$k" \
            -v c1="$c1" -v b="$before" -v a="$after" '$1 == t && !done { done = 1
            printf "| %d | %d | %d | %.3f | %.3f | %.2f | %.3f | %.2f | %d | %d | %.2f | %s | %s |\n",
                   n, p, t, w, c, w1 / w, k, c1 / k, $4, $5, $6 / c / 1e6, b, a }' "$OUT/ida-$n.runs"
    done
done
