#!/bin/sh
# results.sh - regenerate results/ from the current build (`make results`).
#
#   sh scripts/results.sh            every board from 2x2 to 2x6 and 3x4
#   sh scripts/results.sh --small DIR   only the small boards (up to 2x5),
#                                    written to DIR (used by the drift test)
#   sh scripts/results.sh --big      the 2x7 and 7x2 runs (long: see README);
#                                    BIG_BOARDS="2x7" for one; a board whose
#                                    results/histograms/B.csv and B.txt exist
#                                    is not searched again
#
# Every file starts with a provenance block.  Histograms are compared term by
# term with the published values in tests/data/histograms.tsv (OEIS and
# Tarakanov's logs); a mismatch stops the script with an error.
set -eu
cd "$(dirname "$0")/.."
SLIDE=${SLIDE:-$PWD/build/slide}
mode=all
out=results
case "${1:-}" in
--small) mode=small; out=${2:?--small needs a directory} ;;
--big) mode=big ;;
"") ;;
*) echo "usage: results.sh [--small DIR | --big]" >&2; exit 2 ;;
esac
threads=$(nproc)
mkdir -p "$out/histograms"

small="2x2 2x3 3x2 2x4 4x2 3x3 2x5 5x2"
boards="$small 3x4 4x3 2x6 6x2"
[ "$mode" = small ] && boards=$small
[ "$mode" = big ] && boards=${BIG_BOARDS:-"2x7 7x2"}

# published BOARD: "source<TAB>counts" of the corner-goal row, either orientation
published() {
    awk -F'\t' -v b="$1" '
        /^#/ { next }
        { split($1, d, "x"); t = d[2] "x" d[1] }
        ($1 == b || t == b) && $2 == "corner" { print $6 "\t" $5; exit }
    ' tests/data/histograms.tsv
}

# derive_md BOARD CSV / derive_tex BOARD CSV: the histogram with cumulative
# counts, provenance kept as "> " or "% " lines
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
    printf '\\caption{Boards of the $%s\\times %s$ puzzle by distance from the goal}\n' \
        "${1%x*}" "${1#*x}"
    printf '%s\n' '\begin{tabular}{rrr}\toprule' 'distance & count & cumulative \\ \midrule'
    grep -v '^#' "$2" | awk -F, 'NR > 1 { c += $2; printf "%s & %s & %.0f \\\\\n", $1, $2, c }'
    printf '%s\n' '\bottomrule\end{tabular}\end{table}'
}

summary="$out/summary.csv.new"
[ "$mode" = big ] && summary="$out/summary-big.csv.new"
echo "board,boards,radius,antipodes,mean_distance,widest_distance,widest_count,published,match,wall_s" > "$summary"
for b in $boards; do
    h="$out/histograms/$b"
    extra=""
    [ "$mode" = big ] && extra="--progress --checkpoint ${CHECKPOINT_DIR:-/tmp}/slide-$b"
    if [ "$mode" = big ] && [ -s "$h.csv" ] && [ -s "$h.txt" ]; then
        # a finished big run is kept: delete its files to search again
        cp "$h.txt" "$h.log"
    else
        # one search per board; the other formats are derived from its CSV
        "$SLIDE" bfs "$b" --threads "$threads" --format csv --provenance $extra \
            > "$h.csv.tmp" 2> "$h.log"
        if [ "$mode" = big ]; then
            # the checkpoints' share of the wall time, from the progress log
            ck=$(awk '/checkpoint at distance/ { n++; mb = $(NF-4); s += $(NF-1) }
                      END { if (n) printf "# checkpoints: %d of %s MB, %.1f s in all\n", n, mb, s }' "$h.log")
            awk -v ck="$ck" '{ print } /^# wall time: / && ck != "" { print ck }' \
                "$h.csv.tmp" > "$h.csv.tmp2" && mv "$h.csv.tmp2" "$h.csv.tmp"
        fi
        mv "$h.csv.tmp" "$h.csv"
        grep -v '^slide: ' "$h.log" > "$h.txt"
    fi
    derive_md "$b" "$h.csv" > "$h.md"
    derive_tex "$b" "$h.csv" > "$h.tex"
    wall=$(sed -n 's/^wall \([0-9.]*\) s.*/\1/p' "$h.log")
    pub=$(published "$b")
    src=$(printf '%s' "$pub" | cut -f1 | sed 's/ (.*//; s/,/;/g')
    counts=$(printf '%s' "$pub" | cut -f2)
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
            printf "%s,%.0f,%d,%.0f,%.6f,%d,%.0f,%s,%s,%s\n", b, total, r, c[r], sum / total,
                   wd, wc, (src == "" ? "-" : src), match_, wall
        }' >> "$summary"
    # a big run keeps its progress log (layer times, checkpoints) beside it
    if [ "$mode" = big ] && grep -q '^slide: distance' "$h.log"; then
        grep '^slide: ' "$h.log" > "$h.progress.txt"
    fi
    rm -f "$h.log"
done
if grep -q ',NO,' "$summary"; then
    echo "results: a histogram disagrees with the published values:" >&2
    grep ',NO,' "$summary" >&2
    exit 1
fi
{
    "$SLIDE" --version | sed -n '1s/^/# /p'
    echo "# summary of slide bfs per board (goal: standard, blank in the corner); threads $threads"
    echo "# generated by scripts/results.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    cat "$summary"
} > "${summary%.new}"
rm -f "$summary"
sum=${summary%.csv.new}

# summary.md and summary.tex from the CSV (comments are the provenance)
{
    grep '^# ' "$sum.csv" | sed 's/^# /> /'
    echo
    echo "| board | boards | radius | antipodes | mean distance | widest layer (distance: boards) | published | agrees | wall s |"
    echo "|---|---:|---:|---:|---:|---:|---|---|---:|"
    grep -v '^#' "$sum.csv" | tail -n +2 | awk -F, '{
        printf "| %s | %s | %s | %s | %s | %s: %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
} > "$sum.md"
{
    grep '^# ' "$sum.csv" | sed 's/^# /% /'
    printf '%s\n' '\begin{table}\centering' \
        "\\caption{Sliding-tile puzzles: boards, radius (God's number), antipodes and mean distance from the standard goal, compared with the published values.}" \
        '\begin{tabular}{lrrrrrl}\toprule' \
        'board & boards & radius & antipodes & mean $d$ & widest layer & agrees with \\ \midrule'
    grep -v '^#' "$sum.csv" | tail -n +2 | awk -F, '{
        src = ($9 == "yes") ? $8 : "not published"
        gsub(/_/, "\\_", src)
        split($1, d, "x")
        printf "$%s\\times %s$ & %s & %s & %s & %s & %s (%s) & %s \\\\\n", d[1], d[2], $2, $3, $4, $5, $7, $6, src }'
    printf '%s\n' '\bottomrule\end{tabular}\end{table}'
} > "$sum.tex"

# SKIP="parity heuristics" leaves those (slow) tables as they are
case " ${SKIP:-} " in *" parity "*) ;; *)
    [ "$mode" = all ] && sh scripts/parity-table.sh "$out/parity.csv" ;; esac
case " ${SKIP:-} " in *" heuristics "*) ;; *)
    [ "$mode" = all ] && [ -f scripts/heuristics-results.sh ] && sh scripts/heuristics-results.sh ;; esac
[ "$mode" = small ] && RESULTS="$out" sh scripts/heuristics-results.sh 3x3 2x5
[ "$mode" != small ] && sh scripts/plots.sh "$out"
[ "$mode" = all ] && sh scripts/results-frontier.sh # first layers of 4x4, 3x5, 5x5 (kept if done)
[ "$mode" = all ] && sh scripts/paper-notes.sh
echo "results: wrote $out" >&2
