#!/bin/sh
# results.sh - regenerate results/ from the current build (`make results`).
#
#   sh scripts/results.sh [--jobs N] [--out DIR] [PART...]
#        run the parts named (default: every part of the table below), N at
#        a time (default 1; each gets nproc / N threads), then write the
#        summaries; with the default DIR (results) also the figures and the
#        tables of paper-notes.md
#   sh scripts/results.sh --list     the parts, one per line
#   sh scripts/results.sh --big      search 2x7 and 7x2 (`make results-2x7`:
#        10.9 GB and 7 to 9 minutes each on 2 cores; BIG_BOARDS="2x7"
#        for one); a board whose histograms/B.csv and B.txt exist is not
#        searched again
#
# Refuses to run when src, include, the Makefile, scripts or tests/data have
# uncommitted changes, or when build/slide was built from another commit,
# unless ALLOW_DIRTY=1 (then the summaries carry a WARNING line and slide's
# own provenance says -dirty).  Every file starts with a provenance block.
# Histograms are compared term by term with the published values in
# tests/data/histograms.tsv (OEIS and Tarakanov's logs; the source of each
# row is kept in the summary); a mismatch stops the script with an error.
#
# A new part is one line of PARTS: its name, then the shell command that
# writes its files under "$out" (functions of this script, or another
# script; $threads is the thread count it may use).  A part must write only
# its own files, so that parts can run in parallel.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
export SLIDE

PARTS='
hist-small  part_hist_list 2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2
hist-3x3c   part_hist 3x3-centre 3x3 "1 2 3/4 0 5/6 7 8" "centre (cell 4)"
hist-3x4    part_hist_list 3x4
hist-4x3    part_hist_list 4x3
hist-2x6    part_hist_list 2x6
hist-6x2    part_hist_list 6x2
big         part_big
parity      sh scripts/parity-table.sh "$out/parity.csv"
heur-3x3    RESULTS="$out" THREADS=$threads sh scripts/heuristics-results.sh 3x3
heur-2x5    RESULTS="$out" THREADS=$threads sh scripts/heuristics-results.sh 2x5
heur-3x4    RESULTS="$out" THREADS=$threads sh scripts/heuristics-results.sh 3x4
heur-2x6    RESULTS="$out" THREADS=$threads sh scripts/heuristics-results.sh 2x6
pdb-3x3     RESULTS="$out" THREADS=$threads sh scripts/pdb-results.sh 3x3
pdb-2x5     RESULTS="$out" THREADS=$threads sh scripts/pdb-results.sh 2x5
pdb-3x4     RESULTS="$out" THREADS=$threads sh scripts/pdb-results.sh 3x4
pdb-2x6     RESULTS="$out" THREADS=$threads sh scripts/pdb-results.sh 2x6
kre         RESULTS="$out" THREADS=$threads sh scripts/kre-results.sh
frontier    sh scripts/results-frontier.sh
'
# The boards of summary.csv, in order: label, size, goal ("" standard), kind
SUMMARY_BOARDS='
2x2 2x3 3x2 2x4 4x2 3x3 3x3-centre 2x5 5x2 3x4 4x3 2x6 6x2
'

part_names() { printf '%s\n' "$PARTS" | awk 'NF { print $1 }'; }
part_command() { printf '%s\n' "$PARTS" | awk -v p="$1" '$1 == p { $1 = ""; sub(/^ +/, ""); print }'; }

# published KIND BOARD: "source<TAB>counts" of the row for BOARD (either
# orientation) whose goal blank is KIND (corner, "centre (cell 4)", ...)
published() {
    awk -F'\t' -v b="$2" -v kind="$1" '
        /^#/ { next }
        { split($1, d, "x"); t = d[2] "x" d[1] }
        ($1 == b || t == b) && $2 == kind { print $6 "\t" $5; exit }
    ' tests/data/histograms.tsv
}

# derive_md TITLE CSV / derive_tex TITLE CSV: the histogram with cumulative
# counts, the provenance kept as "> " or "% " lines
derive_md() {
    grep '^# ' "$2" | sed 's/^# /> /'
    echo
    echo "| distance | count | cumulative |"
    echo "|---:|---:|---:|"
    grep -v '^#' "$2" | awk -F, 'NR > 1 { c += $2; printf "| %s | %s | %.0f |\n", $1, $2, c }'
}
derive_tex() {
    grep '^# ' "$2" | sed 's/^# /% /'
    printf '%s\n' '\begin{table}\centering'
    printf '\\caption{Boards of the %s puzzle by distance from the goal}\n' "$1"
    printf '%s\n' '\begin{tabular}{rrr}\toprule' 'distance & count & cumulative \\ \midrule'
    grep -v '^#' "$2" | awk -F, 'NR > 1 { c += $2; printf "%s & %s & %.0f \\\\\n", $1, $2, c }'
    printf '%s\n' '\bottomrule\end{tabular}\end{table}'
}

# part_hist LABEL SIZE GOAL KIND: one search; histograms/LABEL.csv (the
# table after slide's provenance), LABEL.txt (the summary lines), .md, .tex,
# and antipodes/LABEL.txt (every antipode, after the same provenance)
part_hist() {
    label=$1 size=$2 goal=$3 kind=$4
    h="$out/histograms/$label" a="$out/antipodes/$label.txt"
    mkdir -p "$out/histograms" "$out/antipodes"
    [ "$(kind_of "$label")" = "$kind" ] || { echo "results: $label must be named for $kind" >&2; return 1; }
    "$SLIDE" bfs "$size" ${goal:+--goal "$goal"} --threads "$threads" --format csv \
        --provenance --antipodes-file "$a" > "$h.csv.tmp" 2> "$h.log"
    grep -v '^slide: ' "$h.log" > "$h.txt.tmp"
    rm -f "$h.log"
    { grep '^# ' "$h.csv.tmp"; cat "$a"; } > "$a.tmp"
    title=$(echo "$size" | sed 's/x/\\times /; s/^/$/; s/$/$/')
    [ -n "$goal" ] && title="$title (goal $goal)"
    derive_md "$title" "$h.csv.tmp" > "$h.md.tmp"
    derive_tex "$title" "$h.csv.tmp" > "$h.tex.tmp"
    for x in csv txt md tex; do mv "$h.$x.tmp" "$h.$x"; done
    mv "$a.tmp" "$a"
}
part_hist_list() { for b in "$@"; do part_hist "$b" "$b" "" corner; done; }

# The goal's blank of a board label, as histograms.tsv names it.
kind_of() { case $1 in *-centre) echo "centre (cell 4)" ;; *) echo corner ;; esac; }

# The search of a big board (2x7, 7x2) is kept when the code it ran is the
# code of this commit (scripts/check-search-code.sh): its .md, .tex and
# antipodes are derived again and the summary says which commit searched it.
part_big() {
    for b in ${BIG_BOARDS:-2x7 7x2}; do
        h="$out/histograms/$b"
        if [ ! -s "$h.csv" ] || [ ! -s "$h.txt" ]; then
            echo "results: $h.csv is missing: run make results-2x7" >&2
            return 1
        fi
        commit=$(sed -n '1s/^# slide .*(commit \([0-9a-f]*\)).*/\1/p' "$h.csv")
        if [ -z "$commit" ]; then
            echo "results: $h.csv names no clean commit: run make results-2x7" >&2
            return 1
        fi
        if grep -q '^# command: .*--resume' "$h.csv"; then
            echo "results: $b was resumed from a checkpoint; only a search run whole is kept:" \
                 "run make results-2x7" >&2
            return 1
        fi
        if ! same=$(sh scripts/check-search-code.sh "$commit"); then
            echo "results: $b was searched at $commit and the search code has changed" \
                 "since: $same; run make results-2x7" >&2
            return 1
        fi
        echo "# $b searched at $commit; $same (scripts/check-search-code.sh)" > "$h.kept.tmp"
        mv "$h.kept.tmp" "$h.kept"
        derive_big "$b"
    done
}

# .md, .tex and antipodes/B.txt of a big board from its CSV and .txt (the
# .txt lists every antipode when there are at most 10)
derive_big() {
    h="$out/histograms/$1" a="$out/antipodes/$1.txt"
    mkdir -p "$out/antipodes"
    title=$(echo "$1" | sed 's/x/\\times /; s/^/$/; s/$/$/')
    # the kept search's own provenance, then why it was kept
    { grep '^# ' "$h.csv"; [ -f "$h.kept" ] && cat "$h.kept"; grep -v '^#' "$h.csv"; } > "$h.prov"
    derive_md "$title" "$h.prov" > "$h.md.tmp"
    derive_tex "$title" "$h.prov" > "$h.tex.tmp"
    rm -f "$h.prov"
    count=$(sed -n 's/^antipodes: //p' "$h.txt")
    {
        grep '^# ' "$h.csv"
        [ -f "$h.kept" ] && cat "$h.kept"
        echo "# antipodes of the $1 board, standard goal: $count board$([ "$count" = 1 ] || echo s) at the radius, from $1.txt"
        sed -n '/^antipodes: /,$p' "$h.txt" | sed -n 's/^  \([0-9].*\)/\1/p'
    } > "$a.tmp"
    listed=$(grep -vc '^#' "$a.tmp" || true)
    if [ "$listed" != "$count" ]; then
        echo "results: $1.txt lists $listed of $count antipodes: search it again with" \
             "--antipodes-file" >&2
        rm -f "$a.tmp"
        return 1
    fi
    mv "$h.md.tmp" "$h.md"
    mv "$h.tex.tmp" "$h.tex"
    mv "$a.tmp" "$a"
}

# The 2x7 / 7x2 searches themselves (make results-2x7): long, checkpointed.
search_big() {
    for b in ${BIG_BOARDS:-2x7 7x2}; do
        h="$out/histograms/$b"
        if [ -s "$h.csv" ] && [ -s "$h.txt" ]; then
            echo "results: keeping the search in $h.csv (delete it to search again)" >&2
            continue
        fi
        "$SLIDE" bfs "$b" --threads "$threads" --format csv --provenance --progress \
            --checkpoint "${CHECKPOINT_DIR:-/tmp}/slide-$b" > "$h.csv.tmp" 2> "$h.log"
        # the checkpoints' share of the wall time, from the progress log
        ck=$(awk '/checkpoint at distance/ { n++; mb = $(NF-4); s += $(NF-1) }
                  END { if (n) printf "# checkpoints: %d of %s MB, %.1f s in all\n", n, mb, s }' "$h.log")
        awk -v ck="$ck" '{ print } /^# wall time: / && ck != "" { print ck }' \
            "$h.csv.tmp" > "$h.csv.tmp2" && mv "$h.csv.tmp2" "$h.csv.tmp"
        grep '^slide: ' "$h.log" > "$h.progress.txt" || true
        grep -v '^slide: ' "$h.log" > "$h.txt"
        mv "$h.csv.tmp" "$h.csv"
        rm -f "$h.log" "$h.kept"
        derive_big "$b"
    done
}

# summary_csv FILE LABEL...: one row per board whose histogram exists
summary_csv() {
    file=$1
    shift
    {
        echo "board,boards,radius,antipodes,mean_distance,widest_distance,widest_count,published,match,wall_s"
        for b in "$@"; do
            h="$out/histograms/$b"
            [ -f "$h.csv" ] || continue
            kind=$(kind_of "$b")
            size=${b%%-*}
            pub=$(published "$kind" "$size")
            src=$(printf '%s' "$pub" | cut -f1 | sed 's/,/;/g')
            counts=$(printf '%s' "$pub" | cut -f2)
            wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$h.txt")
            grep -v '^#' "$h.csv" | awk -F, -v b="$b" -v pub="$counts" -v src="$src" -v wall="$wall" '
                NR == 1 { next }
                { c[$1] = $2; total += $2; sum += $1 * $2; r = $1
                  if ($2 > wc) { wc = $2; wd = $1 } }
                END {
                    match_ = "not published"
                    if (pub != "") {
                        n = split(pub, p, ",")
                        match_ = (n == r + 1) ? "yes" : "NO"
                        for (i = 1; i <= n; i++) if (p[i] != c[i - 1]) match_ = "NO"
                    }
                    printf "%s,%.0f,%d,%.0f,%.6f,%d,%.0f,%s,%s,%s\n", b, total, r, c[r],
                           sum / total, wd, wc, (src == "" ? "-" : src), match_, wall
                }'
        done
    } > "$file.rows"
    if grep -q ',NO,' "$file.rows"; then
        echo "results: a histogram disagrees with the published values:" >&2
        grep ',NO,' "$file.rows" >&2
        rm -f "$file.rows"
        return 1
    fi
    {
        "$SLIDE" --version | sed -n '1s/^/# /p'
        [ -n "$dirty" ] && echo "# WARNING: $dirty"
        echo "# summary of slide bfs per board: standard goal (blank in the corner) unless"
        echo "# the board says otherwise (3x3-centre: goal 1 2 3/4 0 5/6 7 8); threads $threads"
        echo "# per search, $jobs part(s) at a time (wall_s is disturbed when more than one)"
        for b in "$@"; do [ -f "$out/histograms/$b.kept" ] && cat "$out/histograms/$b.kept"; done
        echo "# published: the source of the compared terms (tests/data/histograms.tsv)"
        echo "# generated by scripts/results.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        cat "$file.rows"
    } > "$file.tmp"
    rm -f "$file.rows"
    mv "$file.tmp" "$file"
    summary_views "${file%.csv}"
}

# SUM.md and SUM.tex from SUM.csv (comments are the provenance)
summary_views() {
    {
        grep '^# ' "$1.csv" | sed 's/^# /> /'
        echo
        echo "| board | boards | radius | antipodes | mean distance | widest layer (distance: boards) | published | agrees | wall s |"
        echo "|---|---:|---:|---:|---:|---:|---|---|---:|"
        grep -v '^#' "$1.csv" | tail -n +2 | awk -F, '{
            printf "| %s | %s | %s | %s | %s | %s: %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
    } > "$1.md"
    {
        grep '^# ' "$1.csv" | sed 's/^# /% /'
        printf '%s\n' '\begin{table}\centering' \
            "\\caption{Sliding-tile puzzles: boards, radius (God's number), antipodes and mean distance from the goal, compared with the published values.}" \
            '\begin{tabular}{lrrrrrl}\toprule' \
            'board & boards & radius & antipodes & mean $d$ & widest layer & agrees with \\ \midrule'
        grep -v '^#' "$1.csv" | tail -n +2 | awk -F, '{
            src = ($9 == "yes") ? $8 : "not published"
            gsub(/_/, "\\_", src)
            b = $1; sub(/-centre/, " (centre)", b); sub(/x/, "\\times ", b)
            printf "$%s$ & %s & %s & %s & %s & %s (%s) & %s \\\\\n", b, $2, $3, $4, $5, $7, $6, src }'
        printf '%s\n' '\bottomrule\end{tabular}\end{table}'
    } > "$1.tex"
}

# Refuse results from code that is not committed, or from a stale build.
check_clean() {
    dirty=""
    changes=$(git status --porcelain -- src include Makefile scripts tests/data 2>/dev/null || true)
    [ -n "$changes" ] && dirty="uncommitted changes in: $(echo "$changes" | awk '{ print $2 }' | tr '\n' ' ')"
    head=$(git rev-parse --short HEAD)
    built=$("$SLIDE" --version | sed -n '1s/.*(commit \([^)]*\)).*/\1/p')
    case "$built" in
    "$head"*) ;;
    *) dirty="${dirty:+$dirty; }build/slide is from commit $built, not $head (run make)" ;;
    esac
    [ -z "$dirty" ] && return 0
    if [ "${ALLOW_DIRTY:-0}" != 1 ]; then
        echo "results: refusing: $dirty.  Commit first, or set ALLOW_DIRTY=1 (the files then say so)" >&2
        exit 1
    fi
    echo "results: WARNING: $dirty; ALLOW_DIRTY=1, the summaries say so" >&2
}

# ---- main -------------------------------------------------------------------
out=results
jobs=1
mode=parts
one=""
while [ $# -gt 0 ]; do
    case $1 in
    --list) part_names; exit 0 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --big) mode=big; shift ;;
    --one) one=${2:?}; shift 2 ;; # internal: run one part, no summaries
    -*) echo "usage: results.sh [--jobs N] [--out DIR] [PART...] | --list | --big" >&2; exit 2 ;;
    *) break ;;
    esac
done
case $jobs in '' | *[!0-9]* | 0) echo "results: --jobs expects a positive number" >&2; exit 2 ;; esac
cores=$(nproc)
threads=$((cores / jobs))
[ "$threads" -ge 1 ] || threads=1
threads=${RESULTS_THREADS:-$threads}
mkdir -p "$out/histograms" "$out/antipodes"

if [ -n "$one" ]; then
    cmd=$(part_command "$one")
    [ -n "$cmd" ] || { echo "results: no part named $one (see --list)" >&2; exit 2; }
    eval "$cmd"
    exit 0
fi

check_clean
if [ "$mode" = big ]; then
    search_big
    summary_csv "$out/summary-big.csv" 2x7 7x2
    echo "results: wrote the big boards into $out" >&2
    exit 0
fi

parts=${*:-$(part_names)}
for p in $parts; do
    [ -n "$(part_command "$p")" ] || { echo "results: no part named $p (see --list)" >&2; exit 2; }
done
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
start=$(date +%s)
echo "results: parts: $(echo $parts); $jobs at a time, $threads threads each" >&2
# each part in its own process, at most $jobs at once; a failed part's log is shown
printf '%s\n' $parts | xargs -P "$jobs" -I{} sh -c '
    t0=$(date +%s)
    if sh scripts/results.sh --jobs "$1" --out "$2" --one "$3" > "$4/$3.log" 2>&1; then
        echo "results: part $3 done in $(( $(date +%s) - t0 )) s" >&2
    else
        echo "results: part $3 FAILED:" >&2; cat "$4/$3.log" >&2; exit 1
    fi' sh "$jobs" "$out" {} "$logs" || { echo "results: a part failed" >&2; exit 1; }

# the summaries describe the histogram parts' run (threads, parts at once):
# written only by a run that made histograms
case " $(echo $parts) " in *" hist-"*) summary_csv "$out/summary.csv" $SUMMARY_BOARDS ;; esac
case " $(echo $parts) " in *" big "*) summary_csv "$out/summary-big.csv" 2x7 7x2 ;; esac
if [ "$out" = results ]; then
    sh scripts/plots.sh "$out"
    sh scripts/paper-notes.sh
fi
echo "results: wrote $out in $(( $(date +%s) - start )) s" >&2
