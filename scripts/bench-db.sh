#!/bin/sh
# bench-db.sh [RxC...] - distance-database figures (not part of make test):
# for each board (default 3x3 2x5 3x4 2x6) the file size and bytes per board,
# the time to compress and write, to load (read, inflate, CRC) and to verify,
# at zlib levels 1, 6 and 9, all for the default encoding (1 bit per board);
# then the lookup rate of `slide dist` on 100,000 random solvable boards, one
# thread and all threads.  Databases are kept in bench-out/db/ (delete it to
# rebuild).  The table (Markdown) goes to stdout and bench-out/db/bench.md.
# 2x7 needs about 11 GB and an hour: name it explicitly to include it.
set -eu
S=${SLIDE:-build/slide}
out=${BENCH_OUT:-bench-out/db}
boards=${*:-3x3 2x5 3x4 2x6}
make -s all
mkdir -p "$out"

# random solvable boards of an R x C puzzle, standard goal, one per line
random_boards() {
    awk -v R="$1" -v C="$2" -v N="$3" -v seed=1 'BEGIN {
        srand(seed); n = R * C
        for (k = 0; k < N; k++) {
            for (i = 0; i < n; i++) a[i] = i
            for (i = n - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = a[i]; a[i] = a[j]; a[j] = t }
            inv = 0; z = 0
            for (i = 0; i < n; i++) {
                if (a[i] == 0) { z = i; continue }
                for (j = i + 1; j < n; j++) if (a[j] != 0 && a[j] < a[i]) inv++
            }
            # parity theorem: inversions + (C-1) * (rows between blank and goal blank)
            if ((inv + (C - 1) * (R - 1 - int(z / C))) % 2) {
                p = -1; q = -1
                for (i = 0; i < n; i++) if (a[i] != 0) { if (p < 0) p = i; else if (q < 0) q = i }
                t = a[p]; a[p] = a[q]; a[q] = t
            }
            line = ""
            for (i = 0; i < n; i++) line = line (i ? (i % C ? " " : "/") : "") a[i]
            print line
        }
    }'
}

field() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p"; }

{
echo "# slide distance databases, encoding 1 (1 bit per board)"
echo
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $($S --version | head -n 1)"
echo
echo "| board | level | file bytes | bytes/board | payload ratio | compress+write s | load s | verify s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
} | tee "$out/bench.md"
for b in $boards; do
    base=$out/$b.db
    if [ ! -f "$base" ]; then
        $S bfs "$b" --save "$base" --level 1 --no-progress >/dev/null 2>"$out/$b.bfs.log"
    fi
    for level in 1 6 9; do
        f=$out/$b-$level.db
        $S db recompress "$base" "$f" --level "$level" 2>"$out/$b-$level.log"
        write=$(field "compress and write" <"$out/$b-$level.log")
        bytes=$(wc -c <"$f")
        indexes=$($S db info "$f" | sed -n 's/^space: [a-z]*, \([0-9]*\) indexes.*/\1/p')
        payload=$($S db info "$f" | sed -n 's/^payload: \([0-9]*\) bytes.*/\1/p')
        v=$($S db verify "$f")
        load=$(echo "$v" | field load)
        check=$(echo "$v" | field check)
        echo "| $b | $level | $bytes | $(echo "$bytes $indexes" | awk '{printf "%.4f", $1 / $2}') | $(echo "$bytes $payload" | awk '{printf "%.3f", $1 / $2}') | $write | $load | $check |" | tee -a "$out/bench.md"
    done
done
{
echo
echo "| board | lookups | threads | seconds | lookups/s | with --path: lookups/s |"
echo "|---|---:|---:|---:|---:|---:|"
} | tee -a "$out/bench.md"
for b in $boards; do
    r=${b%x*}
    c=${b#*x}
    random_boards "$r" "$c" 100000 >"$out/$b.boards"
    for t in 1 "$(nproc)"; do
        line=$($S dist --db "$out/$b-1.db" --time --threads "$t" - <"$out/$b.boards" 2>&1 >/dev/null | tail -n 1)
        pline=$($S dist --db "$out/$b-1.db" --path --time --threads "$t" - <"$out/$b.boards" 2>&1 >/dev/null | tail -n 1)
        secs=$(echo "$line" | sed -n 's/.* in \([0-9.]*\) s.*/\1/p')
        rate=$(echo "$line" | sed -n 's/.* s, \([0-9]*\) per second.*/\1/p')
        prate=$(echo "$pline" | sed -n 's/.* s, \([0-9]*\) per second.*/\1/p')
        echo "| $b | 100000 | $t | $secs | $rate | $prate |" | tee -a "$out/bench.md"
    done
done
