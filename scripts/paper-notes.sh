#!/bin/sh
# paper-notes.sh - copy the tables of results/ into paper-notes.md between
# its <!-- BEGIN name --> and <!-- END name --> markers, so that no number
# in the notes is typed by hand.  Blocks: summary (results/summary.md),
# summary-big (results/summary-big.md, the 2x7 runs), parity
# (results/parity.csv as a table), heuristics (results/heuristics-*.csv),
# pdb-heuristics (results/pdb-heuristics-*.csv), korf100 (results/korf100.md),
# kre (results/kre.md: value distributions and the KRE prediction).
set -eu
cd "$(dirname "$0")/.."
notes=paper-notes.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f results/summary.md ] && cp results/summary.md "$tmp/summary"
[ -f results/summary-big.md ] && cp results/summary-big.md "$tmp/summary-big"
[ -f results/frontier/summary.md ] && cp results/frontier/summary.md "$tmp/frontier"
if [ -f results/parity.csv ]; then
    {
        echo "From \`results/parity.csv\` (slide parity, full-space BFS against the criterion):"
        echo
        echo "| board | arrangements | reachable | criterion true | agree | disagree |"
        echo "|---|---:|---:|---:|---:|---:|"
        grep -v '^#' results/parity.csv | tail -n +2 | awk -F, '{
            printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
    } > "$tmp/parity"
fi
if ls results/heuristics-*.csv >/dev/null 2>&1; then
    for f in results/heuristics-*.csv; do
        b=$(basename "$f" .csv); b=${b#heuristics-}
        echo "**$b** (\`$f\`):"
        echo
        echo "| heuristic | admissible | boards with h > d | max h - d | consistent | max \\|h(s) - h(s')\\| over edges | mean h | mean d | mean h/d | h = d | d - h even |"
        echo "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---|"
        grep -v '^#' "$f" | tail -n +2 | awk -F, '{
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                   $1, $3, $4, $5, $6, $13, $8, $9, $10, $11, $12 }'
        echo
    done > "$tmp/heuristics"
fi
if ls results/pdb-heuristics-*.csv >/dev/null 2>&1; then
    for f in results/pdb-heuristics-*.csv; do
        b=$(basename "$f" .csv); b=${b#pdb-heuristics-}
        echo "**$b** (\`$f\`; tables named by board, set and number, see scripts/pdb-results.sh):"
        echo
        echo "| heuristic | admissible | boards with h > d | max h - d | consistent | edges with \\|dh\\| > 1 | mean h | mean d | h = d | d - h even |"
        echo "|---|---|---:|---:|---|---:|---:|---:|---:|---|"
        grep -v '^#' "$f" | tail -n +2 | awk -F, '{
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                   $1, $3, $4, $5, $6, $7, $8, $9, $11, $12 }'
        echo
    done > "$tmp/pdb-heuristics"
fi
[ -f results/korf100.md ] && tail -n +3 results/korf100.md > "$tmp/korf100"
[ -f results/kre.md ] && grep -v '^> ' results/kre.md | sed '1{/^$/d}' > "$tmp/kre"
awk -v dir="$tmp" '
    /^<!-- BEGIN [a-z0-9-]* -->$/ {
        print; name = $3; file = dir "/" name
        if ((getline line < file) > 0) {
            print line
            while ((getline line < file) > 0) print line
            skip = 1
        }
        next
    }
    /^<!-- END [a-z0-9-]* -->$/ { skip = 0 }
    !skip { print }
' "$notes" > "$tmp/notes"
mv "$tmp/notes" "$notes"
echo "paper-notes.sh: updated $notes" >&2
