#!/bin/sh
# bench-pdb.sh - Korf's 100 random 15-puzzle instances (tests/data/korf100.txt)
# solved by IDA* with Manhattan, lc, and the additive pattern databases 5-5-5,
# 6-6-3 and 7-8, each without and with the mirrored lookup, beside the
# averages published by Felner, Korf and Hanan (JAIR 22, 2004, table of the
# 15 puzzle) and Felner, Korf, Meshulam and Holte (JAIR 30, 2007: 7-8 without
# the mirror).  `make bench-pdb`; not a test, not part of `make test`.
#   - The tables are built once into PDB_DIR (default build/pdb; the 7-8 pair
#     needs about 1.6 GB while it builds and 0.58 GB once loaded) with their
#     build time and peak memory in results/korf100-build.txt.  They are never
#     committed: results/ gets the tables of figures only.
#   - Manhattan and lc run under a budget of BUDGET node expansions per
#     instance (default 20,000,000; a count, so the set of instances that
#     finish does not depend on the machine); the table says how many did.
#   - One thread per search (the single-thread figure the issue asks for);
#     THREADS=N (default 2) also runs the 7-8+reflection set with `slide solve
#     --threads N` (boards in parallel).  The wall time of each run less the
#     tables' load time (slide's own "loaded ... in S s" line) is its search
#     wall time; the per-board seconds are summed beside it.
#   - The mean h of the 100 start states per heuristic, beside the "Value"
#     column of the published tables.
#   - Per instance: results/korf100-METHOD.csv (slide solve --format csv:
#     length, expanded, generated, seconds, ...).  Summary: results/korf100.md.
#   - Every solved length must agree among the methods and with the optimal
#     length Korf published (tests/data/korf100.txt, 4th column); the script
#     fails if not.
# The load average is recorded beside the times: the machine may be shared,
# and node counts are the deterministic figures.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-build/slide}
PDB_DIR=${PDB_DIR:-build/pdb}
OUT=${OUT:-results}
BUDGET=${BUDGET:-20000000}
THREADS=${THREADS:-2}
mkdir -p "$PDB_DIR" "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^#' tests/data/korf100.txt | cut -f3 > "$tmp/boards"

build() { # build PARTITION: the tables unless present
    if [ ! -f "$PDB_DIR/$1/$1.1.pdb" ]; then
        echo "## $1 (load: $(cut -d' ' -f1-3 /proc/loadavg))" >> "$OUT/korf100-build.txt"
        /usr/bin/time -f "wall %e s, user %U s, system %S s, peak RSS %M KB" \
            "$SLIDE" pdb build 4x4 --partition "$1" \
            -o "$PDB_DIR/$1" >> "$OUT/korf100-build.txt" 2>> "$OUT/korf100-build.txt"
    fi
}
[ -f "$OUT/korf100-build.txt" ] || printf '# pattern database builds (slide %s)\n' \
    "$("$SLIDE" --version | head -1)" > "$OUT/korf100-build.txt"
for p in 5-5-5 6-6-3 7-8; do build "$p"; done
# the value distribution of every table (over its placements)
for f in "$PDB_DIR"/5-5-5/*.pdb "$PDB_DIR"/6-6-3/*.pdb "$PDB_DIR"/7-8/*.pdb; do
    echo "## $(basename "$f")"
    "$SLIDE" pdb info "$f" | sed -n '/^tiles/p;/^max/,$p'
done > "$OUT/korf100-tables.txt"

pdbs() { # pdbs PARTITION: the --h argument
    n=$(echo "$1" | tr '-' '\n' | wc -l)
    s=""
    for k in $(seq 1 "$n"); do s="$s${s:++}$PDB_DIR/$1/$1.$k.pdb"; done
    echo "pdb:$s"
}

now() { date +%s.%N; }
run() { # run NAME HEURISTIC [OPTIONS...]
    name=$1 h=$2
    shift 2
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(now)
    # stderr is a file, so slide prints its table load time and no progress
    "$SLIDE" solve --size 4x4 --format csv --h "$h" "$@" - \
        < "$tmp/boards" > "$OUT/korf100-$name.csv" 2> "$tmp/$name.err" || true
    t1=$(now)
    tl=$(sed -n 's/^slide: loaded .* in \([0-9.]*\) s$/\1/p' "$tmp/$name.err")
    wall=$(echo "$t0 $t1 ${tl:-0}" | awk '{ printf "%.3f", $2 - $1 - $3 }')
    echo "$name $load $wall" >> "$tmp/loads"
}
: > "$tmp/loads"
run manhattan manhattan --max-nodes "$BUDGET"
run lc lc --max-nodes "$BUDGET"
for p in 5-5-5 6-6-3 7-8; do
    run "$p" "$(pdbs "$p")"
    run "$p-reflect" "$(pdbs "$p")" --reflect
done
[ "$THREADS" -le 1 ] || run "7-8-reflect-t$THREADS" "$(pdbs 7-8)" --reflect --threads "$THREADS"

# load time of the 7-8 pair, apart from the search
load_s=$( { /usr/bin/time -f %e "$SLIDE" solve --count --no-progress --h "$(pdbs 7-8)" \
    '1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0' > /dev/null; } 2>&1 | tail -1)

# The CSV columns: board,method,heuristic,status,length,...; the heuristic
# may be quoted with a comma inside, so fields are counted from the end:
# $(NF-13) status is 4th of 14 -> use a parser that strips quoted commas.
strip() { sed 's/"[^"]*"/q/g' "$1" | tail -n +2; }

summary() { # summary NAME PUBLISHED-NODES PUBLISHED-VALUE LOAD WALL
    strip "$OUT/korf100-$1.csv" | awk -F, -v name="$1" -v pub="$2" -v val="$3" \
        -v load="$4" -v wall="$5" '
        { hs += $11; m++ }
        $4 == "optimal" { n++; e += $8; g += $9; s += $13 }
        END { printf "| %s | %d | %.2f | %s | %.0f | %.0f | %s | %.3f | %s | %s |\n", name,
              n, m ? hs / m : 0, val, n ? e / n : 0, n ? g / n : 0, pub, s, wall, load }'
}
{
    echo "# Korf's 100 instances, IDA* with pattern databases"
    echo
    echo "> slide $("$SLIDE" --version | head -1 | cut -d' ' -f2-), $(date -u +%Y-%m-%dT%H:%MZ)," \
         "host $(uname -n), $(nproc) cores; one thread per search; load average at each run" \
         "in the last column (the machine is shared: times vary, node counts do not)."
    echo
    echo "| heuristic | solved | mean h(start), ours | published mean h | expanded per problem |" \
         "generated per problem | published nodes per problem | search s (sum over boards) |" \
         "search wall s | load |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    while read -r name load wall; do
        case $name in
        manhattan) pub=401,189,630 val=36.942 ;;
        5-5-5 | 5-5-5-reflect) pub=3,090,405 val=41.562 ;;
        6-6-3 | 6-6-3-reflect) pub=617,555 val=42.924 ;;
        7-8) pub=136,288 val=44.75 ;; 7-8-reflect*) pub=36,710 val=45.632 ;; *) pub=- val=- ;;
        esac
        summary "$name" "$pub" "$val" "$load" "$wall"
    done < "$tmp/loads"
    echo
    echo "Manhattan and lc stop after $BUDGET expansions per instance (the solved column" \
         "counts the rest; their per-problem figures are over the solved ones only)."
    echo "Loading the 7-8 tables (0.58 GB) takes $load_s s (a whole slide run on the goal" \
         "board), apart from the search times above."
    echo "Published figures: FKH 2004 (Manhattan, 5-5-5, 6-6-3 and 7-8 rows; its 7-8 row," \
         "36,710 nodes, is the one with the mirrored lookup, as Felner et al. 2007 show" \
         "beside 136,288 nodes and mean 44.75 without it; FKH do not say whether their" \
         "5-5-5 and 6-6-3 rows use the mirror, so both of ours stand beside them)." \
         "Their mean h is not a mean over these 100 start states (Manhattan's 36.942" \
         "has three decimals; ours, 37.05, is the mean of Korf's own h values; over all" \
         "16!/2 boards it is exactly 37): it is over another sample, so it cannot check" \
         "our tables exactly; see paper-notes.md section 6b."
    echo "Node counts: slide counts a node expanded when its children are generated," \
         "and generated children exclude the move that undoes the previous one (the" \
         "goal test is made when a node within the threshold is visited; the last" \
         "iteration stops at the first solution, so counts also depend on the order" \
         "moves are tried).  6-6-3 with the mirrored lookup agrees with FKH's 6-6-3 row" \
         "to a few parts in ten thousand in our expanded column; the published 7-8 counts" \
         "lie between our expanded and generated ones, and our 7-8 mean h agrees with the" \
         "published one (paper-notes.md section 6b says what agrees and what does not)." \
         "The 5-5-5 and 6-6-3 tile sets are our reading of FKH 2004 (see slide pdb --help);" \
         "other sets give other counts."
} > "$OUT/korf100.md"

# every solved length must agree among the methods and with Korf's
{
    grep -v '^#' tests/data/korf100.txt | awk -F'\t' '{ print $1, $4 }'
    for f in "$OUT"/korf100-*.csv; do
        case $f in *-kre*) continue ;; esac
        strip "$f" | awk -F, '$4 == "optimal" { print NR, $5 }'
    done
} | sort -n -s -k1,1 | awk '{ if (($1 in len) && len[$1] != $2) { bad = 1; print "instance " $1 ": lengths " len[$1] " (published) and " $2 } if (!($1 in len)) len[$1] = $2 }
    END { exit bad }'
cat "$OUT/korf100.md"
