#!/bin/sh
# results-24.sh - the 24-puzzle (5x5) solved optimally by IDA* with the
# 6-6-6-6 additive pattern databases of Korf and Felner (AIJ 134, 2002) and
# the mirrored lookup about the main diagonal.  `make results-24`; long, not
# part of `make test` or `make results`.
#   - The four tables (127,512,000 entries each) are built once into
#     PDB_DIR/6-6-6-6 (default build/pdb; about 0.73 GB while one builds,
#     1.46 GB once all four are loaded with their sparse form: pdb.h) with
#     their build time, CPU time and peak memory in
#     results/puzzle24-build.txt.  They are never committed.
#   - Boards: random walks of WALKS moves from the goal (slide scramble
#     --walk), then UNIFORM boards drawn uniformly from the solvable ones,
#     each under BUDGET node expansions (counts, so the boards that finish do
#     not depend on the machine; SEED fixes the boards).
#   - Then Korf and Felner's 50 instances (tests/data/korf24.txt, with their
#     published optimal lengths), in the order of the gap between the
#     published length and h(board), smallest first (ties by number), as many
#     as fit in KF_CPU seconds of search (one thread per search, JOBS lanes,
#     each with KF_CPU / JOBS): an instance still running when its lane's
#     share is spent is interrupted (SIGINT) and shown with the lower bound
#     its search proved.  KF="1 40" runs those instances instead, each under
#     KF_BUDGET expansions (KF_WHY, a phrase saying why these, goes into
#     the table's header).  KF_CPU=0: no instance, the walks and uniform
#     boards only (results/puzzle24-kf50.md has the 50: --summary below).
#   - Every solution is checked here, outside slide: the blank moves are
#     replayed (awk) from the board to the goal, their number is the length,
#     and the length is at least the Manhattan distance with its parity.
#     Walk boards are also solved by IDA* with Manhattan under MD_BUDGET
#     expansions (a consistency check: another heuristic, the same search);
#     where both finish the lengths must agree, and KF instances must match
#     the published optimum.  The script fails otherwise.
#   - results/puzzle24.csv (one record per board) and results/puzzle24.md,
#     with each search's CPU seconds as slide measures them inside the
#     search (solve --format csv's cpu_seconds: the search's threads only,
#     never the tables' load, so never negative), the tables' load CPU
#     seconds of the same process apart (solve --provenance), and nodes per
#     CPU second.
#   - scripts/results-24.sh --table rewrites results/puzzle24.md from
#     results/puzzle24.csv alone (no search), keeping the header of the run
#     that wrote the records.  Records of a run before slide measured CPU
#     time itself (no load_cpu_s column) get no CPU figures: the table says
#     so, gives rates per second of search wall time instead, and names
#     `make results-24` as the rerun.
#   - SELECT=all: the selection that knows no published length.  Every
#     instance of data/korf24.txt in file order (no ordering by the gap,
#     which needs the length), each searched with SEARCH_THREADS threads
#     (default 2; the board given on the command line, so slide's parallel
#     IDA* searches it) under KF_CAP expansions (--max-nodes, default
#     2000000000), while KF_CPU CPU seconds last in all (default 7200: an
#     hour of 2 cores; each process's user + system time counted, the
#     tables' load included; a search still running when they are spent is
#     interrupted and shows its lower bound).  Only afterwards is each
#     length compared with the published one (tests/data/korf24.txt, whose
#     boards must be data/korf24.txt's) and each path replayed (awk, as
#     above).  No walks or uniform boards unless WALKS or UNIFORM are set;
#     the files are $OUT/puzzle24-select.csv and .md (NAME), so the
#     committed results/puzzle24.* stay as they are.  KF_FIRST=N (default
#     1) starts at the N-th instance of the file, to go on where a run's
#     budget ended (its files then default to puzzle24-select-from-N).
#     For example:
#       SELECT=all PDB_DIR=/work/pdb24 KF_CAP=2000000000 KF_CPU=7200 \
#           sh scripts/results-24.sh
#   - scripts/results-24.sh --summary writes results/puzzle24-kf50.md from
#     the records of every SELECT=all and SELECT=retry run in results/ (told
#     by the SELECT= of their header line, whatever the file's name): each
#     of the 50 instances solved (by which run) or the highest lower bound
#     proved, and the number solved (no search; fails if a solved record
#     did not pass its check or its length is not the published one).
#   - SELECT=retry: a further pass over what the earlier runs left.  From
#     their records (FROM; default every SELECT=all and SELECT=retry record
#     in $OUT) the RETRY (default 3) instances no run solved, by the
#     highest lower bound any run proved, smallest first, ties by number
#     (the status and lower bound only: no published length), each searched
#     again from the start under KF_CAP expansions with SEARCH_THREADS
#     threads while KF_CPU CPU seconds last; then checked as above.  Files
#     $OUT/puzzle24-retry.csv and .md (NAME=puzzle24-retry-2 for another
#     pass, so the first one's stay).  A check that fails leaves
#     $OUT/NAME.failed.csv, never over the records.  For example:
#       SELECT=retry RETRY=3 PDB_DIR=/work/pdb24 KF_CAP=16000000000 \
#           KF_CPU=4000 sh scripts/results-24.sh
# The load average is recorded, since the machine may be shared (node counts
# are the deterministic figures).
set -eu
cd "$(dirname "$0")/.."
OUT=${OUT:-results}
SLIDE=${SLIDE:-build/slide}
SELECT=${SELECT:-}
# records_files DIR: the records of the runs that chose instances without
# their published lengths, told by the SELECT= of their header line (not by
# the file's name)
records_files() {
    for f in "$1"/puzzle24*.csv; do
        if [ -f "$f" ] && head -1 "$f" | grep -q -E ' SELECT=(all|retry) '; then echo "$f"; fi
    done
    return 0
}
case "$SELECT" in
    "") NAME=${NAME:-puzzle24} ;;
    all) KF_FIRST=${KF_FIRST:-1}
         case $KF_FIRST in
             [1-9]|[1-4][0-9]|50) ;;
             *) echo "results-24: KF_FIRST must be an instance number 1..50, not \"$KF_FIRST\"" >&2; exit 2 ;;
         esac
         if [ "$KF_FIRST" = 1 ]; then NAME=${NAME:-puzzle24-select}
         else NAME=${NAME:-puzzle24-select-from-$KF_FIRST}; fi
         WALKS=${WALKS:-} UNIFORM=${UNIFORM:-0}
         SEARCH_THREADS=${SEARCH_THREADS:-2} ;;
    retry) NAME=${NAME:-puzzle24-retry}
         RETRY=${RETRY:-3}
         case $RETRY in
             [1-9]|[1-4][0-9]|50) ;;
             *) echo "results-24: RETRY must be a number of instances 1..50, not \"$RETRY\"" >&2; exit 2 ;;
         esac
         FROM=${FROM:-$(records_files "${OUT:-results}")}
         [ -n "$FROM" ] || { echo "results-24: SELECT=retry needs the records of a SELECT=all run in ${OUT:-results} (or FROM=FILE.csv ...)" >&2; exit 2; }
         for f in $FROM; do
             [ -f "$f" ] || { echo "results-24: FROM names no file \"$f\"" >&2; exit 2; }
         done
         # per instance: solved by any run (then not chosen), else the
         # highest lower bound any run proved (field 7); the smallest first,
         # ties by number.  Fields 1 set, 2 id, 5 status and 7 only, never
         # 4 (the published length).
         RETRY_IDS=$(for f in $FROM; do grep -v '^#' "$f" | tail -n +2; done |
             awk -F, '$1 == "kf" { if ($5 == "optimal") solved[$2] = 1
                                   else if (!($2 in lb) || $7 + 0 > lb[$2]) lb[$2] = $7 + 0 }
                      END { for (n in lb) if (!(n in solved)) print lb[n], n }' |
             sort -k1,1n -k2,2n | head -n "$RETRY" | cut -d' ' -f2 | tr '\n' ' ')
         [ -n "$RETRY_IDS" ] || { echo "results-24: no instance left stopped in $(echo $FROM)" >&2; exit 2; }
         WALKS=${WALKS:-} UNIFORM=${UNIFORM:-0}
         SEARCH_THREADS=${SEARCH_THREADS:-2} ;;
    *) echo "results-24: SELECT must be empty, all or retry, not \"$SELECT\"" >&2; exit 2 ;;
esac

# table HEADER: results/puzzle24.md from results/puzzle24.csv; HEADER is
# the text under the title.  CSV fields: 1 set, 2 id, 3 board, 4 published,
# 5 status, 6 length, 7 lower bound, 8 h_start, 9 Manhattan, 10 expanded,
# 11 generated, 12 search wall s, 13, 14 rates, 15 search CPU s, 16 check,
# 17 Manhattan IDA* length, 18 load average, 19 the tables' load CPU s (absent
# in records from before slide measured CPU time: then no CPU figure).
table() {
    cols=$(grep -v "^#" "$OUT/$NAME.csv" | head -1 | awk -F, '{ print NF }')
    cpu=1
    [ "$cols" -ge 19 ] || cpu=0
    {
        echo "# The 24-puzzle with the 6-6-6-6 pattern databases"
        echo
        echo "$1"
        if [ "$cpu" = 0 ]; then
            echo ">"
            echo "> CPU seconds: not measured by this run.  Its script took each search's CPU time as" \
                 "the process's less the tables' load timed in another process, which went negative" \
                 "for short searches; slide now measures the search's CPU time itself" \
                 "(cpu_seconds).  Until \`make results-24\` reruns the searches, the rates below are" \
                 "per second of search wall time (measured inside slide, one thread per search," \
                 "the machine shared: see the load column)."
        fi
        echo
        if [ "$cpu" = 1 ]; then
            echo "| board | published | gap | status | length | h(board) | Manhattan | expanded | generated | search s | CPU s | tables' load CPU s | M generated per CPU s | check | Manhattan IDA* | load |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        else
            echo "| board | published | gap | status | length | h(board) | Manhattan | expanded | generated | search s | CPU s | M generated per search s | check | Manhattan IDA* | load |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
        fi
        grep -v "^#" "$OUT/$NAME.csv" | tail -n +2 | awk -F, -v cpu="$cpu" '{
            name = $1 == "walk" ? "walk of " $2 : $1 == "kf" ? "Korf-Felner #" $2 : "uniform " $2
            len = $5 == "optimal" ? $6 : ">= " $7
            gap = $4 == "-" ? "-" : $4 - $8
            secs = cpu ? $15 : $12
            rate = secs > 1 ? sprintf("%.2f", $11 / secs / 1e6) : "-"
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%s %s | %s | %s | %s |\n", name, $4,
                gap, $5, len, $8, $9, $10, $11, $12, cpu ? $15 : "rerun", cpu ? " " $19 " |" : "",
                rate, $16, $17 == "" ? "-" : $17, $18 }'
        echo
        grep -v "^#" "$OUT/$NAME.csv" | tail -n +2 | awk -F, -v cpu="$cpu" '
            { secs = cpu ? $15 : $12 }
            $1 == "kf" { k++; if ($5 == "optimal") { ks++; ke += $10; kg += $11; kc += secs } else kstop++; kcpu += secs }
            secs > 1 { e += $10; g += $11; c += secs; n++ }
            END {
                unit = cpu ? "CPU s" : "s of search wall time"
                if (k) printf "Korf-Felner instances: %d solved (every length the published one, every path replayed above), %d stopped; %.0f %s in all; the solved ones %.3g expanded and %.3g generated nodes in %.0f %s.\n", ks, kstop, kcpu, unit, ke, kg, kc, unit
                if (n) printf "Node rate over the %d searches of over 1 %s: %.2f M expanded and %.2f M generated per %s (the CPU time of all the threads of a search; the tables'"'"' load excluded).\n", n, unit, e / c / 1e6, g / c / 1e6, cpu ? "CPU second" : "second of search wall time" }'
        echo "A stopped board shows the lower bound its search proved (>= L).  Gap: the published length less h(board)."
        echo "Table build: results/puzzle24-build.txt."
    } > "$OUT/$NAME.md.tmp"
    mv "$OUT/$NAME.md.tmp" "$OUT/$NAME.md"
}

# --summary: results/puzzle24-kf50.md, each of the 50 instances over every
# run of the procedures that choose without the published length (the
# records of SELECT=all and SELECT=retry in $OUT): solved (by which run,
# its length checked there) or the highest lower bound any run proved
if [ "${1:-}" = "--summary" ]; then
    files=$(records_files "$OUT")
    [ -n "$files" ] || { echo "results-24: no SELECT=all or SELECT=retry records in $OUT" >&2; exit 2; }
    {
        echo "# Korf and Felner's 50 instances of the 24-puzzle: every run so far"
        echo
        echo "> scripts/results-24.sh --summary, from the records of the runs that choose instances" \
             "without their published lengths: $(for f in $files; do printf '%s (%s); ' "${f#"$OUT"/}" \
             "$(head -1 "$f" | sed -n 's/^# slide [^ ]* (commit \([0-9a-f]*[-a-z]*\)), \([^,]*\),.*/commit \1, \2/p')"; done | sed 's/; $//')."
        echo "> A run's length is compared with the published one and its path replayed (awk, outside slide) in that run's table;" \
             "a stopped run proved the lower bound shown (>= L).  CPU s: the searches' own, summed over the runs of the instance."
        echo
        echo "| instance | published | h(board) | runs | result | best lower bound | CPU s | solved by | check |"
        echo "|---:|---:|---:|---:|---|---:|---:|---|---|"
        for f in $files; do
            grep -v '^#' "$f" | tail -n +2 | sed "s|^|${f#"$OUT"/},|"
        done | awk -F, '$2 == "kf" {
            n = $3; runs[n]++; cpu[n] += $16; pub[n] = $5; h[n] = $9
            if ($6 == "optimal") { len[n] = $7; by[n] = by[n] (by[n] == "" ? "" : ", ") $1
                                   c = $7 != $5 ? "differs from the published " $5 : $17
                                   if (chk[n] == "" || chk[n] == "ok") chk[n] = c }
            else if ($8 > lb[n]) lb[n] = $8 }
        END {
            for (n = 1; n <= 50; n++) {
                if (!(n in runs)) { printf "| %d | - | - | 0 | not searched | - | - | - | - |\n", n; miss++; continue }
                if (n in len) { solved++; res = "optimal, " len[n]; if (chk[n] != "ok") bad++ }
                else res = "stopped"
                printf "| %d | %s | %s | %d | %s | %s | %.0f | %s | %s |\n", n, pub[n], h[n], runs[n], res,
                    n in len ? "-" : ">= " lb[n], cpu[n], n in len ? by[n] : "-", n in len ? chk[n] : "-"
                total += cpu[n] }
            printf "\n%d of the 50 solved optimally (%s), %d stopped, %d not searched; %.0f CPU s of search in all.\n",
                solved, bad ? bad " of them failed a check: see the check column" : "every length the published one, every path replayed",
                50 - solved - miss, miss, total
            exit bad > 0 }'
    } > "$OUT/puzzle24-kf50.md.tmp" || {
        rm -f "$OUT/puzzle24-kf50.md.tmp"
        echo "results-24: a solved instance failed its check in its run's records" >&2; exit 1; }
    mv "$OUT/puzzle24-kf50.md.tmp" "$OUT/puzzle24-kf50.md"
    cat "$OUT/puzzle24-kf50.md"
    exit 0
fi
if [ "${1:-}" = "--table" ]; then
    [ -f "$OUT/$NAME.csv" ] || { echo "results-24: no $OUT/$NAME.csv to make the table of" >&2; exit 2; }
    # the header the run that wrote the records gave (from its table), kept
    header=$(sed -n '3,/^$/p' "$OUT/$NAME.md" 2>/dev/null | sed '/^$/d;/^> CPU seconds: not measured/,$d;/^>$/d')
    [ -n "$header" ] || header="> $(grep '^#' "$OUT/$NAME.csv" | head -1 | sed 's/^# //')"
    table "$header"
    cat "$OUT/$NAME.md"
    exit 0
fi
PDB_DIR=${PDB_DIR:-build/pdb}
SEED=${SEED:-24}
WALKS=${WALKS-10 20 40 60 80 100 150 200}
UNIFORM=${UNIFORM:-2}
KF_CAP=${KF_CAP:-2000000000}
SEARCH_THREADS=${SEARCH_THREADS:-}
BUDGET=${BUDGET:-500000000}
MD_BUDGET=${MD_BUDGET:-100000000}
KF=${KF:-}
KF_BUDGET=${KF_BUDGET:-2000000000}
KF_CPU=${KF_CPU:-7200}
case $KF_CPU in
    ''|*[!0-9]*) echo "results-24: KF_CPU must be a number of CPU seconds (0 or more), not \"$KF_CPU\"" >&2; exit 2 ;;
esac
THREADS=${THREADS:-}
JOBS=${JOBS:-1}
case $JOBS in
    ''|0|*[!0-9]*) echo "results-24: JOBS must be a number of lanes (1 or more), not \"$JOBS\"" >&2; exit 2 ;;
esac
case $SEARCH_THREADS in
    0|*[!0-9]*) echo "results-24: SEARCH_THREADS must be a number of threads (1 or more), not \"$SEARCH_THREADS\"" >&2; exit 2 ;;
esac
mkdir -p "$PDB_DIR" "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=$PDB_DIR/6-6-6-6
load() { cut -d' ' -f1-3 /proc/loadavg; }

if [ ! -f "$dir/6-6-6-6.4.pdb" ]; then
    {
        printf '# pattern database build (%s)\n' "$("$SLIDE" --version | head -1)"
        echo "## 6-6-6-6 on 5x5 (load: $(load))"
    } > "$OUT/puzzle24-build.txt"
    /usr/bin/time -f "wall %e s, user %U s, system %S s, peak RSS %M KB" "$SLIDE" pdb build \
        5x5 --partition 6-6-6-6 ${THREADS:+--threads "$THREADS"} -o "$dir" \
        >> "$OUT/puzzle24-build.txt" 2>&1 ||
        { echo "results-24: building the tables failed (see $OUT/puzzle24-build.txt)" >&2; exit 1; }
fi
h="pdb:$dir/6-6-6-6.1.pdb+$dir/6-6-6-6.2.pdb+$dir/6-6-6-6.3.pdb+$dir/6-6-6-6.4.pdb"

# the boards: "SET ID PUBLISHED BOARD" (BOARD with / between rows)
: > "$tmp/boards"
for k in $WALKS; do
    echo "walk $k - $("$SLIDE" scramble 5x5 --walk "$k" --seed "$SEED")" >> "$tmp/boards"
done
i=0
"$SLIDE" scramble 5x5 --count "$UNIFORM" --seed "$SEED" 2>/dev/null | while read -r b; do
    i=$((i + 1))
    echo "uniform $i - $b" >> "$tmp/boards"
done
kf_board() { # kf_board N: "kf N PUBLISHED BOARD"
    awk -F'\t' -v n="$1" '!/^#/ && $1 == n {
        split($4, c, " "); b = ""
        for (k = 1; k <= 25; k++) b = b c[k] (k == 25 ? "" : k % 5 ? " " : "/")
        print "kf", n, $2, b }' tests/data/korf24.txt
}
for n in $KF; do kf_board "$n" >> "$tmp/boards"; done
# With SELECT=all: all 50 in the order of data/korf24.txt, chosen without
# their lengths (PUBLISHED rides along for the check after the searches).
# Else, without KF: all 50 by the gap between the published length and
# h(board) (h from one run that stops each search at its first node),
# smallest first.
: > "$tmp/kf-auto"
if [ "$SELECT" = all ]; then
    grep -v '^#' data/korf24.txt | awk '{ print NR, $0 }' | while read -r n b; do
        rec=$(kf_board "$n")
        [ "$(echo "$rec" | cut -d' ' -f4-)" = "$b" ] || {
            echo "results-24: board $n of data/korf24.txt is not tests/data/korf24.txt's" >&2
            exit 1; }
        echo "$rec"
    done > "$tmp/kf-auto"
    [ "$(wc -l < "$tmp/kf-auto")" -eq 50 ] || { echo "results-24: not 50 boards" >&2; exit 1; }
    awk -v f="$KF_FIRST" '$2 >= f' "$tmp/kf-auto" > "$tmp/kf-from" && mv "$tmp/kf-from" "$tmp/kf-auto"
elif [ "$SELECT" = retry ]; then
    # chosen above (RETRY_IDS), before anything was built or loaded
    for n in $RETRY_IDS; do kf_board "$n"; done > "$tmp/kf-auto"
elif [ -z "$KF" ] && [ "$KF_CPU" -gt 0 ]; then
    for n in $(seq 1 50); do kf_board "$n"; done > "$tmp/kf-all"
    cut -d' ' -f4- "$tmp/kf-all" | "$SLIDE" solve --size 5x5 --format csv --no-progress \
        --h "$h" --reflect --max-nodes 1 - 2> /dev/null | tail -n +2 |
        sed 's/"[^"]*"/q/g' | cut -d, -f11 > "$tmp/kf-h"
    [ "$(wc -l < "$tmp/kf-h")" -eq 50 ] || { echo "results-24: no h for the 50" >&2; exit 1; }
    paste -d' ' "$tmp/kf-h" "$tmp/kf-all" | awk '{ print $4 - $1, $3, $0 }' |
        sort -k1,1n -k2,2n | cut -d' ' -f4- > "$tmp/kf-auto"
fi
# CPU seconds of a process that loads the tables and solves the goal board:
# only to keep a lane from starting an instance it cannot get past loading
# (no figure of the tables is computed from it)
/usr/bin/time -f "%U %S" -o "$tmp/cpu.load" "$SLIDE" solve --count --no-progress --h "$h" \
    --reflect '1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0' > /dev/null 2>&1
load_cpu=$(tail -1 "$tmp/cpu.load" | awk '{ print $1 + $2 }')
# a run that chose instances must have time for one beyond the tables' load
if [ -n "$SELECT" ] || { [ -z "$KF" ] && [ "$KF_CPU" -gt 0 ]; }; then
    need=$(echo "$load_cpu" | awk -v j="$JOBS" '{ printf "%d", ($1 + 61) * j }')
    [ "$KF_CPU" -gt "$need" ] || {
        echo "results-24: KF_CPU=$KF_CPU leaves no time for an instance beyond loading the tables ($load_cpu CPU s + 60 s a lane, $JOBS lane(s)): give more than $need" >&2; exit 2; }
fi

solve() { # solve LANE BUDGET HEURISTIC [OPTIONS]: boards on stdin, CSV records
    # out; the process's CPU seconds (user + system, table loading included:
    # the lane's budget) in tmp/cpu.LANE, slide's provenance block (the
    # tables' load time) in tmp/prov.LANE
    # With SEARCH_THREADS the board goes on the command line (a board on
    # stdin is searched by one thread) and that many threads search it.
    lane=$1 budget=$2 heur=$3
    shift 3
    read -r board
    if [ -n "$SEARCH_THREADS" ]; then
        set -- "$@" --threads "$SEARCH_THREADS" "$board"
    else
        set -- "$@" -
    fi
    echo "$board" | /usr/bin/time -f "%U %S" -o "$tmp/cpu.$lane" \
        ${secs:+timeout -s INT "$secs"} "$SLIDE" \
        solve --size 5x5 --format csv --no-progress --provenance --h "$heur" \
        --max-nodes "$budget" "$@" > "$tmp/out.$lane" || :
    grep '^# ' "$tmp/out.$lane" > "$tmp/prov.$lane" || :
    grep -v '^#' "$tmp/out.$lane" | tail -n +2
}
# one board: record "NR,set,id,published,md,load,search CPU s,slide's record,
# the tables' load CPU s" (the CPU seconds as slide measured them)
one() { # one LANE NR SET ID PUB BOARD BUDGET [SECONDS]
    ln=$1 nr=$2 set=$3 id=$4 pub=$5 b=$6 budget=$7 secs=${8:-}
    l=$(load)
    rec=$(echo "$b" | solve "$ln" "$budget" "$h" --reflect 2> "$tmp/err.$ln" || true)
    [ -n "$rec" ] || { cat "$tmp/err.$ln" >&2; return 1; }
    # slide's cpu_seconds (field 16 of its record; quoted fields blanked first)
    cpu=$(echo "$rec" | sed 's/"[^"]*"/q/g' | cut -d, -f16 | awk '{ printf "%.2f", $1 }')
    lcpu=$(sed -n 's/.*loading tables: [0-9.]* s wall, \([0-9.]*\) s CPU.*/\1/p' "$tmp/prov.$ln")
    md=""
    if [ "$set" = walk ]; then
        secs=""
        md=$(echo "$b" | solve "$ln" "$MD_BUDGET" manhattan |
             awk -F, '$4 == "optimal" { print $5 }' || true)
    fi
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$nr" "$set" "$id" "$pub" "$md" "$l" "$cpu" "$rec" \
        "${lcpu:-}" >> "$tmp/solved.$ln"
    echo "results-24: $set $id: $(echo "$rec" | cut -d, -f4,5,8) ($cpu CPU s)" >&2
}
lane() { # lane L: boards number L, L + JOBS, ... one after the other, then
    # its share of the gap-ordered instances while its CPU share lasts
    awk -v j="$JOBS" -v l="$1" '(NR - 1) % j == l { print NR, $0 }' "$tmp/boards" > "$tmp/lane.$1"
    while read -r nr set id pub b; do
        budget=$BUDGET
        [ "$set" != kf ] || budget=$KF_BUDGET
        one "$1" "$nr" "$set" "$id" "$pub" "$b" "$budget" || return 1
    done < "$tmp/lane.$1"
    left=$((KF_CPU / JOBS))
    awk -v j="$JOBS" -v l="$1" '(NR - 1) % j == l { print 1000 + NR, $0 }' "$tmp/kf-auto" \
        > "$tmp/kflane.$1"
    # an instance is started only with more left than loading the tables
    # takes (plus a minute): interrupted before its search began, it would
    # leave no record
    min_left=$(echo "$load_cpu" | awk '{ printf "%d", $1 + 60 }')
    cap=1000000000000000
    [ -z "$SELECT" ] || cap=$KF_CAP
    while [ "$left" -gt "$min_left" ] && read -r nr set id pub b; do
        # the time limit is wall-clock, at least the CPU time of the
        # search's threads over their number: the CPU spent never passes
        # the share
        one "$1" "$nr" "$set" "$id" "$pub" "$b" "$cap" \
            "$((left / ${SEARCH_THREADS:-1}))" || return 1
        left=$(tail -1 "$tmp/cpu.$1" | awk -v l="$left" '{ printf "%d", l - $1 - $2 - 0.5 }')
    done < "$tmp/kflane.$1"
    : > "$tmp/done.$1"
}
# JOBS lanes at once (each search one thread), records put back in order
k=0
while [ "$k" -lt "$JOBS" ]; do
    : > "$tmp/solved.$k"
    lane "$k" &
    k=$((k + 1))
done
wait
k=0
while [ "$k" -lt "$JOBS" ]; do
    [ -f "$tmp/done.$k" ] || { echo "results-24: lane $k failed" >&2; exit 1; }
    k=$((k + 1))
done
cat "$tmp"/solved.* | sort -t, -k1,1n | cut -d, -f2- > "$tmp/solved"

# fields of tmp/solved: 1 set, 2 id, 3 published, 4 Manhattan IDA* length,
# 5 load, 6 search CPU seconds (slide's cpu_seconds), then slide's record: 7 board, 8 method,
# 9 heuristic, 10 status, 11 length, 12 blank moves, 13 tiles, 14 expanded,
# 15 generated, 16 iterations, 17 h_start, 18 lower bound, 19 seconds,
# 20 stored, 21 threads, 22 cpu_seconds, 23 expanded_last, 24 generated_last,
# 25 cpu_critical; 26 the tables' load CPU seconds
awk -F, '
function manhattan(c,   k, s, t) {
    s = 0
    for (k = 0; k < 25; k++) if (c[k]) { t = c[k] - 1; s += abs(int(k / 5) - int(t / 5)) + abs(k % 5 - t % 5) }
    return s }
function abs(x) { return x < 0 ? -x : x }
function replay(board, moves,   c, n, k, z, m, to, r) {
    gsub("/", " ", board); n = split(board, t, " ")
    for (k = 0; k < 25; k++) { c[k] = t[k + 1] + 0; if (!c[k]) z = k }
    md = manhattan(c)
    for (k = 1; k <= length(moves); k++) {
        m = substr(moves, k, 1)
        if (m == "U" && z >= 5) to = z - 5
        else if (m == "D" && z < 20) to = z + 5
        else if (m == "L" && z % 5) to = z - 1
        else if (m == "R" && z % 5 != 4) to = z + 1
        else return "illegal move " k
        c[z] = c[to]; c[to] = 0; z = to }
    for (k = 0; k < 24; k++) if (c[k] != k + 1) return "not the goal"
    return "ok" }
BEGIN { print "set,id,board,published,status,length,lower_bound,h_start,manhattan,expanded,generated,seconds,expanded_per_cpu_s,generated_per_cpu_s,cpu_s,check,manhattan_ida_length,load,load_cpu_s" }
{
    check = "-"; md = ""
    r = replay($7, $12)
    if ($10 == "optimal") {
        check = r
        if (length($12) != $11) check = "length differs from the moves"
        else if ($11 < md || ($11 - md) % 2) check = "length below Manhattan or of the wrong parity"
        else if ($3 != "-" && $3 != $11) check = "differs from the published " $3
        else if ($4 != "" && $4 != $11) check = "differs from IDA* with Manhattan (" $4 ")"
        if (check != "ok") bad = 1 }
    rate_e = $6 > 0.5 ? sprintf("%.0f", $14 / $6) : ""
    rate_g = $6 > 0.5 ? sprintf("%.0f", $15 / $6) : ""
    printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", $1, $2, $7, $3, $10, $11, $18, $17, md,
        $14, $15, $19, rate_e, rate_g, $6, check, $4, $5, $26 }
END { exit bad }' "$tmp/solved" > "$OUT/$NAME.csv.tmp" || {
    mv "$OUT/$NAME.csv.tmp" "$OUT/$NAME.failed.csv"
    echo "results-24: a check failed ($OUT/$NAME.failed.csv; $OUT/$NAME.csv left as it was)" >&2; exit 1; }
if [ "$SELECT" = all ]; then
    kf_params="SELECT=all KF_FIRST=$KF_FIRST KF_CAP=$KF_CAP KF_CPU=$KF_CPU SEARCH_THREADS=$SEARCH_THREADS"
elif [ "$SELECT" = retry ]; then
    kf_params="SELECT=retry RETRY=$RETRY FROM=\"$(echo $FROM)\" KF_CAP=$KF_CAP KF_CPU=$KF_CPU SEARCH_THREADS=$SEARCH_THREADS"
else
    kf_params="KF_BUDGET=$KF_BUDGET"
fi
{
    echo "# slide $("$SLIDE" --version | head -1 | cut -d' ' -f2-), $(date -u +%Y-%m-%dT%H:%MZ)," \
         "host $(uname -n), $(nproc) cores, scripts/results-24.sh JOBS=$JOBS SEED=$SEED" \
         "BUDGET=$BUDGET $kf_params MD_BUDGET=$MD_BUDGET; IDA* with the 6-6-6-6" \
         "tables and --reflect; cpu_s: the search's CPU seconds as slide measures them" \
         "(cpu_seconds), load_cpu_s: the tables' load in the same process"
    cat "$OUT/$NAME.csv.tmp"
} > "$OUT/$NAME.csv"
rm -f "$OUT/$NAME.csv.tmp"

table "> slide $("$SLIDE" --version | head -1 | cut -d' ' -f2-), $(date -u +%Y-%m-%dT%H:%MZ), \
host $(uname -n), $(nproc) cores; ${SEARCH_THREADS:-1} thread(s) per search, $JOBS at once; IDA* with the sum of the \
four additive tables of Korf and Felner (2002) and its mirror about the main \
diagonal (--reflect; the larger of the two sums).  Budgets: $BUDGET expansions per \
walk or uniform board, $MD_BUDGET for the Manhattan cross-check; \
$(if [ "$SELECT" = all ]; then echo "Korf-Felner instances in the order of data/korf24.txt$( [ "$KF_FIRST" = 1 ] || echo " from #$KF_FIRST on"), chosen without their published lengths (compared only afterwards), each searched by $SEARCH_THREADS threads under $KF_CAP expansions, while $KF_CPU CPU seconds lasted in all (the tables' load counted)."; \
  elif [ "$SELECT" = retry ]; then echo "A further pass: the $RETRY Korf-Felner instances that no run of the records $(echo $FROM) solved, by the highest lower bound any of them proved, smallest first (ties by number; chosen without their published lengths, compared only afterwards), each searched again from the start by $SEARCH_THREADS threads under $KF_CAP expansions, while $KF_CPU CPU seconds lasted in all (the tables' load counted)."; \
  elif [ -n "$KF" ]; then echo "Korf-Felner instances $KF under $KF_BUDGET expansions each${KF_WHY:+ ($KF_WHY)}."; \
  elif [ "$KF_CPU" = 0 ]; then echo "No Korf-Felner instance in this run (KF_CPU=0): results/puzzle24-kf50.md has all 50, chosen without their published lengths."; \
  else echo "Korf-Felner instances in the order of the gap between the published length and h, smallest first, within $KF_CPU CPU seconds of search ($JOBS lane(s) of $((KF_CPU / JOBS)) s each, the tables' load counted)."; fi) \
CPU seconds: each search's own, measured inside slide; the tables' load apart. \
scripts/results-24.sh, SEED=$SEED."
cat "$OUT/$NAME.md"
