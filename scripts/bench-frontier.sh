#!/bin/sh
# bench-frontier.sh - speed and memory of `slide frontier` (`make
# bench-frontier`): beside the two-bit BFS (`slide bfs`) on a board both
# run; the deeper partial searches with 1 and 2 threads, this tree's binary
# ("new") beside an older commit's ("old", built from `git archive`, no
# worktree), rank keys beside moved keys; and, with FRONTIER_CONTEND=1, the
# same runs while a `yes > /dev/null` job takes one core.
# Not a test: figures only, though the histograms of every run of a board
# (and the BFS's radius and antipodes) must be equal or the bench fails.
#
#   sh scripts/bench-frontier.sh       3x4 both ways; 4x4 to distance 24
#   FRONTIER_BENCH="" FRONTIER_PARTIAL="4x4:22" OLD_REF=main sh scripts/bench-frontier.sh
#
#   FRONTIER_BENCH    boards searched whole by bfs and frontier (default 3x4; "" none)
#   FRONTIER_PARTIAL  BOARD:DEPTH searches (default 4x4:24)
#   FRONTIER_THREADS  thread counts (default "1 2")
#   FRONTIER_KEYS     key kinds of the partial searches (default "rank moved")
#   OLD_REF           the commit whose binary is "old" (default main; "" none);
#                     OLD_SLIDE=path uses a binary already built
#   FRONTIER_CONTEND  1: repeat the partial searches with one core busy
#
# Output: a Markdown table on stdout: board, binary, keys, threads,
# distance, wall s, CPU s, CPU share (CPU s / wall s), boards per second of
# wall time and per CPU-second, peak RSS, bytes per board of the last
# layer, the load average before and after, the other jobs' CPU during the
# run in cores (/proc/stat's busy time over the run less the run's own CPU
# time, over its wall time: unlike the 1-minute load average this does not
# lag behind, so the bench's own previous run is not counted; runs of under
# a second read high, since the window also holds a few hundredths of a CPU
# second of process starts; at most the number of cores), and "LOADED"
# when that is above 0.25 core (above 1.25 in the runs beside `yes`, which
# takes one): the figures then say more about the other jobs than about
# slide; then the moved keys' CPU time per board over the rank keys', and
# the machine.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-build/slide}
OUT=${BENCH_OUT:-build/bench}
mkdir -p "$OUT"
[ -x /usr/bin/time ] || { echo "bench-frontier: needs /usr/bin/time" >&2; exit 1; }
full=${FRONTIER_BENCH-3x4}
partial=${FRONTIER_PARTIAL:-4x4:24}
threads=${FRONTIER_THREADS:-1 2}
kinds=${FRONTIER_KEYS:-rank moved}
old_ref=${OLD_REF-main}
old=${OLD_SLIDE:-}

# the old binary: the commit's tree exported and built apart (no worktree)
if [ -z "$old" ] && [ -n "$old_ref" ]; then
    src="$OUT/old-src"
    rm -rf "$src"
    mkdir -p "$src"
    git archive "$old_ref" | tar -x -C "$src"
    make -C "$src" -j2 build/slide HAVE_SERVE=0 HAVE_MPI=0 > "$OUT/old-build.log" 2>&1 ||
        { echo "bench-frontier: building $old_ref failed (see $OUT/old-build.log)" >&2; exit 1; }
    old="$src/build/slide"
    old_desc="$old_ref ($(git rev-parse --short "$old_ref"))"
fi

hz=$(getconf CLK_TCK)
# busy CPU seconds of the whole machine since boot (/proc/stat's first line:
# user, nice, system, irq, softirq, steal; idle and iowait left out)
busy() { awk -v hz="$hz" '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat; }

# run NAME BOARD DEPTH KEYS THREADS CMD...: one timed run; a table row
run() {
    name=$1 board=$2 depth=$3 keys=$4 nt=$5
    shift 5
    tag="$name-$board-$keys-$nt"
    load0=$(cut -d' ' -f1 /proc/loadavg)
    busy0=$(busy)
    /usr/bin/time -f '%e %U %S %M' -o "$OUT/time" "$@" > "$OUT/$tag.csv" 2> "$OUT/$tag.err"
    busy1=$(busy)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    set -- $(cat "$OUT/time")
    boards=$(grep -v '^#' "$OUT/$tag.csv" | awk -F, 'NR > 1 { s += $2 } END { printf "%.0f", s }')
    bpb=$(sed -n 's/^layer [0-9]*: \([0-9.]*\) bytes per board.*/\1/p' "$OUT/$tag.err")
    echo "$board $name $keys $nt $2 $3 $boards" >> "$OUT/cpu.txt"
    awk -v n="$name" -v b="$board" -v d="$depth" -v k="$keys" -v t="$nt" -v w="$1" \
        -v u="$2" -v s="$3" -v m="$4" -v boards="$boards" -v bpb="${bpb:--}" \
        -v l0="$load0" -v l1="$load1" -v b0="$busy0" -v b1="$busy1" -v nc="$(nproc)" 'BEGIN {
        cpu = u + s; ww = w > 0 ? w : 0.01; cc = cpu > 0 ? cpu : 0.01
        # the busy window also holds the start of /usr/bin/time and this
        # awk (a few hundredths of a CPU second), so short runs read high
        other = (b1 - b0 - cpu) / ww; if (other < 0) other = 0; if (other > nc) other = nc
        limit = n ~ /[+]yes$/ ? 1.25 : 0.25
        printf "| %s | %s | %s | %s | %s | %.2f | %.2f | %.2f | %.2f M | %.2f M | %.1f | %s | %s / %s | %.2f | %s |\n",
               b, n, k, t, d, w, cpu, cpu / ww, boards / ww / 1e6, boards / cc / 1e6, m / 1000,
               bpb, l0, l1, other, (other > limit ? "LOADED" : "") }'
}

# same BOARD: every run's histogram equal to the first's
same() {
    first=$(ls "$OUT"/*-"$1"-*.csv | head -1)
    for f in "$OUT"/*-"$1"-*.csv; do
        cmp -s "$first" "$f" || { echo "bench-frontier: $f differs from $first" >&2; exit 1; }
    done
}

rm -f "$OUT"/*.csv "$OUT"/*.err "$OUT/cpu.txt"
echo "| board | binary | keys | threads | distance | wall s | CPU s | CPU share | boards/s | boards/CPU s | peak RSS MB | bytes/board (last layer) | load before / after | other jobs' cores | |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|"
for b in $full; do
    run bfs "$b" all - 2 "$SLIDE" bfs "$b" --format csv --no-progress
    run new "$b" all rank 2 "$SLIDE" frontier "$b" --format csv --no-progress
    cmp -s "$OUT/bfs-$b---2.csv" "$OUT/new-$b-rank-2.csv" ||
        { echo "bench-frontier: $b histograms differ" >&2; exit 1; }
    for k in radius antipodes; do
        a=$(grep "^$k" "$OUT/bfs-$b---2.err" | head -1)
        f=$(grep "^$k" "$OUT/new-$b-rank-2.err" | head -1)
        [ "$a" = "$f" ] || { echo "bench-frontier: $b $k: '$a' vs '$f'" >&2; exit 1; }
    done
    sed -n '/^antipodes/,/^layer/p' "$OUT/bfs-$b---2.err" | grep '^  [^.]' > "$OUT/a-bfs"
    sed -n '/^antipodes/,/^layer/p' "$OUT/new-$b-rank-2.err" | grep '^  [^.]' > "$OUT/a-fr"
    cmp -s "$OUT/a-bfs" "$OUT/a-fr" || { echo "bench-frontier: $b antipodes differ" >&2; exit 1; }
done

partials() { # SUFFIX: the partial searches, every binary, key kind, thread count
    for p in $partial; do
        b=${p%:*} d=${p#*:}
        for t in $threads; do
            [ -z "$old" ] || run "old$1" "$b" "$d" rank "$t" \
                "$old" frontier "$b" --max-depth "$d" --threads "$t" --format csv --no-progress
            for k in $kinds; do
                run "new$1" "$b" "$d" "$k" "$t" "$SLIDE" frontier "$b" --max-depth "$d" \
                    --threads "$t" --keys "$k" --format csv --no-progress
            done
        done
        same "$b"
    done
}
partials ""
if [ "${FRONTIER_CONTEND:-0}" = 1 ]; then
    yes > /dev/null &
    busy=$!
    trap 'kill $busy 2>/dev/null' EXIT
    partials "+yes"
    kill $busy
    trap - EXIT
fi
echo
# moved keys' CPU time per board over the rank keys', per board and threads
awk '$2 == "new" { cpu[$1 " " $3 " " $4] = ($5 + $6) / ($7 > 0 ? $7 : 1) }
     END { for (k in cpu) { split(k, a, " ");
               if (a[2] == "moved" && (a[1] " rank " a[3]) in cpu)
                   printf "moved / rank keys, CPU time per board, %s, %s thread(s): %.2f\n",
                          a[1], a[3], cpu[k] / cpu[a[1] " rank " a[3]] } }' "$OUT/cpu.txt" | sort
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; new: $("$SLIDE" --version | head -1), $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo -dirty)${old:+; old: ${old_desc:-$old}}"
