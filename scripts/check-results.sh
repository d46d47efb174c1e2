#!/bin/sh
# check-results.sh - regenerate the small-board results into a temporary
# directory and compare them with the committed results/, ignoring what
# legitimately changes from run to run: provenance lines ("# ", "% ", "> "),
# lines with wall times and memory, and the wall_s column of summary.csv.
# Exit 0 when they agree; otherwise print the differences and exit 1.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sh scripts/results.sh --small "$tmp" 2>/dev/null
mask() {
    case $1 in
    */summary.csv) grep -v '^# ' "$1" | sed 's/,[^,]*$//' ;;  # drop wall_s
    *) grep -v -e '^# ' -e '^% ' -e '^> ' -e 'wall ' "$1" ;;
    esac
}
status=0
for f in "$tmp"/summary.csv "$tmp"/histograms/* "$tmp"/heuristics-* "$tmp"/joint/*; do
    rel=${f#"$tmp"/}
    if [ ! -f "results/$rel" ]; then
        echo "results/$rel is missing (run make results)"
        status=1
    else
        mask "results/$rel" > "$tmp/committed"
        mask "$f" > "$tmp/now"
        if [ "$rel" = summary.csv ]; then
            # the committed summary has more boards: every small row must be there
            if grep -Fxv -f "$tmp/committed" "$tmp/now" > "$tmp/extra"; then
                echo "results/summary.csv lacks or differs in:"; cat "$tmp/extra"; status=1
            fi
        else
            diff -u --label "results/$rel" --label "regenerated" "$tmp/committed" "$tmp/now" ||
                status=1
        fi
    fi
done
[ "$status" = 0 ] && echo "results/ agrees with the code"
exit $status
