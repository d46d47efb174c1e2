#!/bin/sh
# bench.sh - speed and memory of `slide bfs` beside two baselines written for
# the benchmark (scripts/baselines/): a hash-set BFS over boards and a
# one-byte-per-board array BFS with a queue.  Not a test: figures only,
# though every baseline histogram must equal slide's or the bench fails.
#
#   sh scripts/bench.sh            3x3, 2x5, 3x4 (+ baselines on 3x3, 2x5)
#   BENCH_BIG=1 sh scripts/bench.sh   also 2x6 and the byte baseline on 3x4
#   BENCH_CALLGRIND="2x5" sh scripts/bench.sh   instruction counts only on 2x5
#                                     (default 2x5 3x4; "" skips them)
#   BENCH_BEFORE=PATH sh scripts/bench.sh   also STM 3x4 and 2x6 by the slide
#                                     binary PATH (e.g. one built from main)
#                                     and by this one, alternated in the same
#                                     run, and MTM 3x4 (--metric mtm) by this
#                                     one: the metric's cost, and that STM
#                                     did not get slower
#
# Output: a Markdown table on stdout (board, program, threads, wall s,
# boards/s, peak RSS MB, peak RSS in bits per board, time relative to slide with all
# cores) and the machine it ran on.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-build/slide}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"
if [ ! -x /usr/bin/time ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get install -y -qq time >/dev/null 2>&1 || true
    fi
fi
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
cc -O2 -o "$OUT/hashbfs" scripts/baselines/hashbfs.c
cc -O2 -o "$OUT/bytebfs" scripts/baselines/bytebfs.c
cores=$(nproc)
boards="3x3 2x5 3x4"
[ "${BENCH_BIG:-0}" = 1 ] && boards="$boards 2x6"

# repeat count for a board: short runs are repeated so that the 10 ms
# resolution of /usr/bin/time does not swamp them
reps() { case $1 in 3x3) echo 50 ;; 2x5) echo 10 ;; *) echo 1 ;; esac; }

# run NAME BOARD THREADS CMD... : times CMD (mean of reps runs), keeps its
# CSV, prints a row
run() {
    name=$1 board=$2 threads=$3
    shift 3
    n=$(reps "$board")
    "$@" > "$OUT/$name-$board.csv" 2>/dev/null
    /usr/bin/time -f "%e %M" -o "$OUT/time" sh -c \
        'n=$1; shift; i=0; while [ $i -lt $n ]; do "$@" >/dev/null 2>&1; i=$((i+1)); done' \
        sh "$n" "$@"
    set -- $(cat "$OUT/time")
    wall=$(awk -v w="$1" -v n="$n" 'BEGIN { printf "%.4f", w / n }') rss_kb=$2
    states=$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$OUT/$name-$board.csv")
    if ! cmp -s "$OUT/$name-$board.csv" "$OUT/slide-$board.csv"; then
        echo "bench: $name disagrees with slide on $board" >&2
        exit 1
    fi
    ref=$(cat "$OUT/ref-$board")
    awk -v b="$board" -v p="$name" -v t="$threads" -v w="$wall" -v r="$rss_kb" \
        -v s="$states" -v ref="$ref" 'BEGIN {
        rate = w > 0 ? s / w : 0
        printf "| %s | %s | %s | %.3f | %.1f M | %.1f | %.1f | %.2fx |\n", b, p, t, w,
               rate / 1e6, r * 1024 / 1e6, r * 8192 / s, (ref > 0 ? w / ref : 1)
    }'
}

# build/slide-bfs-base: this CLI with the BFS expansion of commit BFS_BASE
# (Makefile), the code before issue 18; "" when it cannot be built
base=build/slide-bfs-base
make -s "$base" >/dev/null 2>&1 || base=""
base_commit=$(sed -n 's/^BFS_BASE ?= //p' Makefile)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
mem=$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
echo "Machine: $cpu, $cores cores, $mem; $($SLIDE --version | head -n 1)"
echo
echo "Wall time: mean of 50 runs (3x3), 10 runs (2x5) or one run; peak RSS of one run."
echo
echo "| board | program | threads | wall s | boards/s | peak RSS MB | RSS bits/board | time vs slide ($cores threads) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for b in $boards; do
    r=${b%x*} c=${b#*x}
    # reference run: slide with every core, also the histogram to compare with
    $SLIDE bfs "$b" --format csv --threads "$cores" > "$OUT/slide-$b.csv" 2>/dev/null
    echo 0 > "$OUT/ref-$b"
    run slide "$b" "$cores" $SLIDE bfs "$b" --format csv --threads "$cores"
    echo "$wall" > "$OUT/ref-$b"
    run slide "$b" 1 $SLIDE bfs "$b" --format csv --threads 1
    case $b in
    3x3|2x5)
        run hash-set-bfs "$b" 1 "$OUT/hashbfs" "$r" "$c"
        run byte-array-bfs "$b" 1 "$OUT/bytebfs" "$r" "$c" ;;
    3x4)
        # the BFS expansion before issue 18 in the same CLI (the same work,
        # the same histogram): the speed-up of the expansion itself
        if [ -n "$base" ]; then
            run "slide-bfs-base ($base_commit)" "$b" "$cores" "$base" bfs "$b" --format csv --threads "$cores"
            run "slide-bfs-base ($base_commit)" "$b" 1 "$base" bfs "$b" --format csv --threads 1
        fi
        if [ "${BENCH_BIG:-0}" = 1 ]; then run byte-array-bfs "$b" 1 "$OUT/bytebfs" "$r" "$c"; fi ;;
    esac
done

# Instructions per board: deterministic where wall times on a shared machine
# are not.  callgrind counts every instruction of `slide bfs B --threads 1`;
# the same count for build/slide-bfs-base (this CLI and library with the
# BFS expansion of commit BFS_BASE, the code before issue 18) is the baseline.
cg_boards=${BENCH_CALLGRIND-2x5 3x4}
if [ -n "$cg_boards" ] && command -v valgrind >/dev/null 2>&1; then
    echo
    echo "Instructions per board: callgrind, one thread, whole run (\`slide bfs B --threads 1\`);"
    echo "baseline: the BFS expansion of commit $(sed -n 's/^BFS_BASE ?= //p' Makefile) built into the same CLI."
    echo
    echo "| board | program | instructions | boards | instructions/board |"
    echo "|---|---|---:|---:|---:|"
    for b in $cg_boards; do
        [ -f "$OUT/slide-$b.csv" ] ||
            $SLIDE bfs "$b" --format csv > "$OUT/slide-$b.csv" 2>/dev/null
        for prog in $SLIDE $base; do
            valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.out" \
                "$prog" bfs "$b" --threads 1 --format csv --no-progress \
                > "$OUT/cg-$b.csv" 2>/dev/null
            if ! cmp -s "$OUT/cg-$b.csv" "$OUT/slide-$b.csv"; then
                echo "bench: $prog under callgrind disagrees with slide on $b" >&2
                exit 1
            fi
            ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$OUT/cg.out")
            boards=$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$OUT/cg-$b.csv")
            name=slide
            [ "$prog" = "$base" ] && name="slide at $(sed -n 's/^BFS_BASE ?= //p' Makefile) (baseline)"
            awk -v b="$b" -v p="$name" -v i="$ir" -v s="$boards" 'BEGIN {
                printf "| %s | %s | %.0f | %.0f | %.1f |\n", b, p, i, s, i / s }'
        done
    done
fi

# Before and after: STM 3x4 and 2x6 by BENCH_BEFORE and by this slide, two
# runs each, alternated (best of two: the host's noise), every histogram
# equal; then MTM 3x4 by this slide, once.
if [ -n "${BENCH_BEFORE:-}" ]; then
    echo
    echo "Before and after: wall seconds, $cores threads, best of 2 alternated runs;"
    echo "before: $BENCH_BEFORE ($("$BENCH_BEFORE" --version | head -n 1)); load before the runs: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "| board | metric | program | wall s (best) | boards/s |"
    echo "|---|---|---|---:|---:|"
    wall_of() { # wall seconds of one run of the command, its CSV in $OUT/ba.csv
        /usr/bin/time -f "%e" -o "$OUT/ba-time" "$@" > "$OUT/ba.csv" 2>/dev/null
        cat "$OUT/ba-time"
    }
    for b in 3x4 2x6; do
        best_b="" best_a=""
        for i in 1 2; do
            w=$(wall_of "$BENCH_BEFORE" bfs "$b" --format csv --threads "$cores" --no-progress)
            cp "$OUT/ba.csv" "$OUT/ba-before-$b.csv"
            best_b=$(awk -v a="$w" -v b="$best_b" 'BEGIN { print (b == "" || a < b) ? a : b }')
            w=$(wall_of $SLIDE bfs "$b" --format csv --threads "$cores" --no-progress)
            if ! cmp -s "$OUT/ba.csv" "$OUT/ba-before-$b.csv"; then
                echo "bench: $SLIDE and $BENCH_BEFORE disagree on $b" >&2
                exit 1
            fi
            best_a=$(awk -v a="$w" -v b="$best_a" 'BEGIN { print (b == "" || a < b) ? a : b }')
        done
        n=$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$OUT/ba.csv")
        awk -v b="$b" -v w="$best_b" -v n="$n" 'BEGIN { printf "| %s | stm | before | %.2f | %.1f M |\n", b, w, n / w / 1e6 }'
        awk -v b="$b" -v w="$best_a" -v n="$n" 'BEGIN { printf "| %s | stm | slide | %.2f | %.1f M |\n", b, w, n / w / 1e6 }'
    done
    w=$(wall_of $SLIDE bfs 3x4 --metric mtm --format csv --threads "$cores" --no-progress)
    n=$(awk -F, 'NR > 1 { s += $2 } END { print s }' "$OUT/ba.csv")
    awk -v w="$w" -v n="$n" 'BEGIN { printf "| 3x4 | mtm | slide | %.2f (one run) | %.1f M |\n", w, n / w / 1e6 }'
    echo
    echo "Load after the runs: $(cut -d' ' -f1-3 /proc/loadavg)."
fi
