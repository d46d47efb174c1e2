#!/bin/sh
# results-commits.sh [DIR] - which commit made the files of DIR (default
# results/), read from their provenance blocks, so that no document has to
# type it: one line per commit,
#   COMMIT  FILES  FIRST-DATE .. LAST-DATE  (e.g. PATH)
# oldest first, then the files that name no commit.  A provenance block is
# a line "slide VERSION (commit C)" after a comment prefix ("# ", "% ",
# "> ") and its "date: " line (UTC).  docs/results.md points here instead
# of naming a commit.
set -u
dir=${1:-results}
[ -d "$dir" ] || { echo "results-commits: no directory $dir" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
none=0
for f in $(find "$dir" -type f \( -name '*.csv' -o -name '*.txt' -o -name '*.md' -o -name '*.tex' -o -name '*.log' \) | sort); do
    c=$(sed -n 's/^[#%>] slide [^ ]* (commit \([^)]*\)).*/\1/p' "$f" | head -n 1)
    if [ -z "$c" ]; then
        none=$((none + 1))
        continue
    fi
    d=$(sed -n 's/^[#%>] date: \([^ ]*\).*/\1/p' "$f" | head -n 1)
    printf '%s %s %s\n' "$c" "${d:--}" "$f" >> "$tmp"
done
# per commit: count, first and last date (of the files that give one), one
# example; the commits ordered by their first date
awk '
    { n[$1]++; if (!($1 in ex)) ex[$1] = $3
      if ($2 != "-") { if (!($1 in first) || $2 < first[$1]) first[$1] = $2
                       if (!($1 in last) || $2 > last[$1]) last[$1] = $2 } }
    END { for (c in n) printf "%s %s %d %s %s\n", (c in first) ? first[c] : "~", c, n[c],
                               (c in last) ? last[c] : "-", ex[c] }' "$tmp" | sort |
    awk '{ printf "%-14s %4d file%s  %s .. %s  (e.g. %s)\n", $2, $3, $3 == 1 ? "" : "s",
           $1 == "~" ? "-" : $1, $4, $5 }'
[ "$none" -gt 0 ] && echo "$none files name no commit (tables and notes without a provenance block)"
exit 0
