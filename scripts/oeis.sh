#!/bin/sh
# oeis.sh - every OEIS sequence about sliding-tile distances that slide can
# compute (tests/data/oeis.tsv), computed by slide and compared term by term
# with the published terms.
#
#   sh scripts/oeis.sh [--quick] [--out DIR] [--threads N]
#
#   --quick    small depths only (seconds; what `make test` runs)
#   --out DIR  where the table and the b-files go (default results/oeis)
#
# Writes DIR/table.csv and DIR/table.md (one row per sequence: the slide
# command, how many terms the OEIS has, how many slide computed, whether
# they agree, new terms and how they were checked, seconds) and one b-file
# DIR/bNNNNNN.txt per sequence ("n a(n)" lines, the OEIS format, after "#"
# lines saying how each term was made and checked).
#
# A term is "new" when the OEIS does not have it.  A new term is written to
# the b-file only when a second, independent computation gives the same
# number: the same layer searched from the goal's image under a symmetry of
# the board (another blank cell, so other keys and another order of work),
# or, for the unbounded board, on a second board one row and one column
# larger (both large enough for that depth).  A disagreement with a
# published term is reported in the table and fails the run (exit 1); it
# is never smoothed.
#
# OEIS_ONLY="A090164 A090165" computes those sequences alone and replaces
# their rows (and b-files) in an existing DIR/table.csv; every row says
# when and at which commit it was made.
#
# OEIS_LOG=FILE appends every slide frontier's progress (a line per layer,
# with its time) to FILE, to follow a run of hours.
#
# OEIS_FRONTIER_ARGS="--temp-dir DIR --max-memory 16G" is passed to every
# slide frontier (deep layers that do not fit in memory go to DIR; the
# counts do not depend on it).
#
# Depths: OEIS_DEPTHS="A090164:30 A090377:12" overrides the depth searched
# for a sequence (hist rows searched by slide frontier).  OEIS_BFS_MAX
# (default 12, quick 10) is the largest board, in cells, searched
# completely by slide bfs; a larger board with a complete histogram in
# results/histograms/ (make results-2x7) is read from there, and the
# table says so.  Environment: SLIDE (default build/slide), OEIS_DATA
# (default tests/data/oeis.tsv: the registry and the published terms).
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
data=${OEIS_DATA:-tests/data/oeis.tsv}
quick=0
out=results/oeis
threads=
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=1 ;;
        --out) out=$2; shift ;;
        --threads) threads="--threads $2"; shift ;;
        *) echo "oeis.sh: unknown argument '$1' (allowed: --quick, --out DIR, --threads N)" >&2; exit 2 ;;
    esac
    shift
done
[ -x "$SLIDE" ] || { echo "oeis.sh: $SLIDE is missing; run make first" >&2; exit 1; }
if [ "$quick" = 1 ]; then bfs_max=${OEIS_BFS_MAX:-10}; else bfs_max=${OEIS_BFS_MAX:-12}; fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The default depth of a frontier search for a sequence (quick / full).
# Full depths reproduce every published term where this machine allows
# (docs/oeis.md gives the time and memory of each).
default_depth() { # anum
    if [ "$quick" = 1 ]; then
        case $1 in
            A089484|A090164|A090165|A346737) echo 18 ;;
            A090031) echo 12 ;;
            A090032) echo 10 ;;
            A090377) echo 8 ;;
            A090378) echo 6 ;;
            A389728) echo 12 ;;
            *) echo 8 ;;
        esac
    else
        case $1 in
            A089484) echo 28 ;;
            A090164|A090165) echo 29 ;;
            A346737) echo 30 ;;
            A090031) echo 22 ;;
            A090032) echo 21 ;;
            A090377) echo 19 ;;
            A090378) echo 18 ;;
            A389728) echo 16 ;;
            *) echo 20 ;;
        esac
    fi
}

depth_for() { # anum
    for o in ${OEIS_DEPTHS:-}; do
        [ "${o%%:*}" = "$1" ] && { echo "${o#*:}"; return; }
    done
    default_depth "$1"
}

# goal R C ROW COL: the goal board of R x C with tiles 1.. in reading order
# and the blank at (ROW, COL), 0-based, as board text ("1 2 3/4 0 5/...").
goal() {
    awk -v R="$1" -v C="$2" -v br="$3" -v bc="$4" 'BEGIN {
        t = 1
        for (r = 0; r < R; r++) {
            line = ""
            for (c = 0; c < C; c++) {
                v = (r == br && c == bc) ? 0 : t++
                line = line (c ? " " : "") v
            }
            s = s (r ? "/" : "") line
        }
        print s
    }'
}

# blank_cell R C WHERE IMAGE: "ROW COL" of the goal blank; IMAGE 1 gives
# the cell's image under a half turn of the board (the second computation).
blank_cell() {
    R=$1 C=$2
    case $3 in
        corner) r=$((R - 1)) c=$((C - 1)) ;;
        centre) r=$(((R - 1) / 2)) c=$(((C - 1) / 2)) ;;
        mid-side|edge) r=0 c=$(((C - 1) / 2)) ;;
        *) echo "oeis.sh: unknown goal blank '$3' in $data" >&2; exit 1 ;;
    esac
    if [ "$4" = 1 ]; then
        r=$((R - 1 - r)) c=$((C - 1 - c))
    fi
    echo "$r $c"
}

# board_for WHERE DEPTH EXTRA: the board standing for the unbounded
# quarter-plane (corner) or half-plane (mid-side) to DEPTH moves: a board
# whose walls the blank cannot reach within DEPTH moves, EXTRA rows and
# columns larger still.
board_for() {
    case $1 in
        corner) echo "$(($2 + 1 + $3))x$(($2 + 1 + $3))" ;;
        mid-side) echo "$(($2 + 1 + $3))x$((2 * $2 + 1 + 2 * $3))" ;;
    esac
}

now() { date +%s.%N; }

# counts FILE: the distance,count CSV of slide (provenance lines dropped)
# as one comma-separated list of counts
counts() {
    grep -v '^#' "$1" | awk -F, 'NR > 1 { s = s (s == "" ? "" : ",") $2 } END { print s }'
}

# run_hist BOARD WHERE DEPTH IMAGE OUTFILE: slide's counts in the metric
# $metric; prints the command (in rh_cmd: the caller's variables are left
# alone)
run_hist() {
    b=$1; R=${b%x*}; C=${b#*x}
    set -- $(blank_cell "$R" "$C" "$2" "$4") "$3" "$5"
    g=$(goal "$R" "$C" "$1" "$2")
    cells=$((R * C))
    mopt=""
    [ "$metric" = stm ] || mopt=" --metric $metric"
    if [ "$cells" -le "$bfs_max" ]; then
        rh_cmd="slide bfs $b --goal '$g'$mopt --format csv"
        "$SLIDE" bfs "$b" --goal "$g" --metric "$metric" --format csv $threads \
            > "$tmp/h.csv" 2> "$tmp/h.err" || { cat "$tmp/h.err" >&2; return 1; }
    else
        # the goal by its blank's cell (--blank): boards of hundreds of cells
        # stand for the unbounded one, and their goals are long to print
        cell=$(($1 * C + $2))
        rh_cmd="slide frontier $b --blank $cell$mopt --max-depth $3 --format csv"
        # OEIS_LOG: each layer's progress line appended there, to follow a long run
        prog=--no-progress; errf=$tmp/h.err
        : > "$errf"
        [ -z "${OEIS_LOG:-}" ] || { prog=--progress; errf=$OEIS_LOG; echo "# $rh_cmd" >> "$errf"; }
        "$SLIDE" frontier "$b" --blank "$cell" --metric "$metric" --max-depth "$3" \
            --format csv $prog $threads ${OEIS_FRONTIER_ARGS:-} \
            > "$tmp/h.csv" 2>> "$errf" ||
            { tail -n 3 "$errf" >&2; return 1; }
    fi
    counts "$tmp/h.csv" > "$4"
    echo "$rh_cmd"
}

# compare PUBLISHED MINE: "agree" or "differs at a(k): OEIS x, slide y"
compare() {
    awk -v p="$1" -v m="$2" -v off="${3:-0}" 'BEGIN {
        np = split(p, P, ","); nm = split(m, M, ",")
        n = np < nm ? np : nm
        for (i = 1; i <= n; i++)
            if (P[i] != M[i] && M[i] != "?") {
                printf "differs at a(%d): OEIS %s, slide %s\n", i - 1 + off, P[i], M[i]; exit
            }
        print "agree"
    }'
}

csv="$out/table.csv"
only=${OEIS_ONLY:-}
made="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo -dirty) $(date -u +%Y-%m-%dT%H:%M:%SZ)"
{
    echo "# last run: $made on $(uname -n), $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); mode $([ $quick = 1 ] && echo quick || echo full)${only:+; only $only}"
    echo "sequence,kind,boards,goal_blank,oeis_terms,oeis_status,slide_terms,agreement,new_terms,seconds,made,command"
} > "$csv.tmp"
if [ -n "$only" ] && [ -s "$csv" ]; then
    : > "$tmp/kept"
    grep '^A' "$csv" | while IFS= read -r row; do
        case " $only " in *" ${row%%,*} "*) ;; *) echo "$row" >> "$tmp/kept" ;; esac
    done
fi

grep -v '^#' "$data" | while IFS='	' read -r anum kind boards where off status terms source; do
    if [ -n "$only" ]; then
        case " $only " in
            *" $anum "*) ;;
            *) grep "^$anum," "$tmp/kept" >> "$csv.tmp" 2>/dev/null || true; continue ;;
        esac
    fi
    start=$(now)
    np=$(echo "$terms" | awk -F, '{ print NF }')
    new=0
    note=""
    metric=stm
    [ "$kind" = mtmhist ] && metric=mtm
    if [ "$kind" = hist ] || [ "$kind" = mtmhist ]; then
        depth=$(depth_for "$anum")
        if [ "$boards" = inf ]; then
            b=$(board_for "$where" "$depth" 0)
            b2=$(board_for "$where" "$depth" 1)
        else
            b=$boards
            b2=$boards
        fi
        R=${b%x*}; C=${b#*x}
        if [ "$kind" = hist ] && [ "$boards" != inf ] && [ $((R * C)) -gt "$bfs_max" ] &&
           [ "$status" = full ] && [ -s "results/histograms/$b.csv" ] && [ "$quick" = 0 ]; then
            counts "results/histograms/$b.csv" > "$tmp/mine"
            cmd="results/histograms/$b.csv ($(sed -n '1s/^# //p' "results/histograms/$b.csv"), $(sed -n 's/^# command: //p' "results/histograms/$b.csv" | head -n 1))"
        elif ! cmd=$(run_hist "$b" "$where" "$depth" 0 "$tmp/mine"); then
            echo "oeis.sh: $anum: slide failed" >&2
            echo fail > "$tmp/failed"
            continue
        fi
        mine=$(cat "$tmp/mine")
        nm=$(echo "$mine" | awk -F, '{ print NF }')
        agree=$(compare "$terms" "$mine" 0)
        # terms beyond the OEIS: a second computation from the goal's image
        # (or a larger stand-in for the unbounded board) must agree
        if [ "$nm" -gt "$np" ]; then
            if [ "$boards" = inf ]; then
                image=0 how="the same depth on $b2"
            else
                image=1 how="the goal's half-turn image on $b2"
            fi
            cmd2=$(run_hist "$b2" "$where" "$depth" "$image" "$tmp/second") ||
                { echo "oeis.sh: $anum: the second computation failed" >&2; : > "$tmp/second"; }
            second=$(cat "$tmp/second")
            checked=$(compare "$mine" "$second" 0)
            if [ "$checked" = agree ]; then
                new=$((nm - np))
                note="new terms a($np..$((nm - 1))) checked by $how ($cmd2)"
            else
                new=0
                note="terms beyond the OEIS NOT confirmed by $how: $checked"
                mine=$(echo "$mine" | cut -d, -f1-"$np")
                nm=$np
            fi
        fi
    else
        # radius rows: one complete BFS per board that fits
        mine=""
        nm=0
        cmd="slide bfs RxC (radius)"
        gap=""
        for b in $(echo "$boards" | tr , ' '); do
            R=${b%x*}; C=${b#*x}
            r="?"
            if [ $((R * C)) -le "$bfs_max" ]; then
                "$SLIDE" bfs "$b" $threads > "$tmp/r.err" 2>&1
                r=$(sed -n 's/^radius: //p' "$tmp/r.err")
            elif [ "$quick" = 0 ] && [ -s "results/histograms/$b.csv" ]; then
                r=$(grep -v '^#' "results/histograms/$b.csv" | awk -F, 'NR > 1 { d = $1 } END { print d }')
            fi
            [ "$r" = "?" ] && gap="$gap${gap:+ }$b"
            mine="$mine${mine:+,}$r"
            [ "$r" != "?" ] && nm=$((nm + 1))
        done
        agree=$(compare "$terms" "$mine" "$off")
        [ -n "$gap" ] && note="not computed: $gap (a complete search does not fit)"
    fi
    secs=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
    case $agree in agree) ;; *) echo fail > "$tmp/failed" ;; esac
    # the b-file: slide's terms from the offset while they are consecutive
    {
        echo "# $anum: terms computed by slide ($cmd)"
        echo "# $agree with the OEIS terms (source: $source)${note:+; $note}"
        echo "# made at $made"
        echo "$mine" | awk -F, -v off="$off" '{
            for (i = 1; i <= NF && $i != "?"; i++) print i - 1 + off, $i
        }'
    } > "$out/b${anum#A}.txt"
    printf '%s,%s,"%s",%s,%s,%s,%s,"%s",%s,%s,%s,"%s"\n' "$anum" "$kind" "$boards" "$where" \
        "$np" "$status" "$nm" "$(echo "$agree${note:+; $note}" | sed 's/"/""/g')" "$new" "$secs" \
        "$made" "$(echo "$cmd" | sed 's/"/""/g')" >> "$csv.tmp"
    echo "oeis: $anum $boards $where: $nm terms, $agree${note:+; $note} (${secs} s)" >&2
done
mv "$csv.tmp" "$csv"

# table.md from table.csv
{
    echo "# OEIS sequences computed by slide"
    echo
    sed -n '1s/^# last run: /Last run: /p' "$csv"
    echo
    echo "| sequence | boards | goal blank | OEIS terms | slide terms | agreement | new | seconds | made | command |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    grep -v '^#' "$csv" | sed 1d | awk -F'"' -v OFS='"' '{ for (i = 2; i <= NF; i += 2) gsub(/,/, "\001", $i); print }' |
        awk -F, '{
            for (i = 1; i <= NF; i++) { gsub("\001", ",", $i); gsub(/"/, "", $i); gsub(/\|/, "\\|", $i) }
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | `%s` |\n", $1, $3, $4, $5, $7, $8, $9, $10, $11, $12
        }'
} > "$out/table.md"
if [ -e "$tmp/failed" ]; then
    echo "oeis.sh: a sequence disagrees with the OEIS or could not be computed (see $csv)" >&2
    exit 1
fi
echo "oeis.sh: every term slide computed agrees with the OEIS ($csv)" >&2
