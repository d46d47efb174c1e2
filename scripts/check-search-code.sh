#!/bin/sh
# check-search-code.sh OLD [NEW] - is the code a `slide bfs` search runs the
# same at commit NEW (default HEAD) as at commit OLD?  Used by results.sh so
# that results searched at OLD (2x7 and 7x2: 20 minutes and 10.9 GB each)
# may keep their commit while every other table is regenerated at NEW.
#
# The search code is the files listed below (the engine and the core it
# calls), found at NEW and at OLD under any path
# (src/ was reorganised into layer folders: a file is matched by its name).
# A file identical at both commits passes.  Otherwise each C file is cut
# into its top-level functions, and:
#   - every function reachable from the search's entry points (ROOTS) by
#     calls (a name appearing in a body, within these files) must have the
#     same text at both commits;
#   - everything outside functions, comments and prototypes left out
#     (macros, tables, struct and type definitions) must be the same, but
#     for added conditional-compilation lines (#if ... #endif around new
#     functions) and #defines of names no search file mentioned at OLD.
# Functions that changed but that the search never reaches (refactored
# helpers of other commands) are listed and allowed.  Exit 0 with a line
# naming OLD, NEW and what differed; exit 1 naming the first difference that
# matters; exit 2 on bad arguments.
set -eu
cd "$(dirname "$0")/.."
old=${1:?usage: check-search-code.sh OLD [NEW]}
new=${2:-HEAD}
# Checkpoint files are not part of it: saving reads the store and the result
# (const) and cannot change the search, and results.sh keeps only searches
# that were never resumed from one (no --resume in their command).
FILES="engine/bfs.c engine/move_tables.c engine/buckets.c engine/space.c engine/store.c
       core/rank.c core/parity.c core/board.c core/error.c
       bfs.h move_tables.h buckets.h space.h store.h rank.h parity.h board.h error.h"
ROOTS="bfs_run bfs_resume space_init space_unrank store_alloc store_free
       store_check_memory store_bytes_needed board_goal board_parse board_format"
# Input checks: reached, but they only decide whether a search may start
# (the memory guard) and read the board text of --goal (the parser and
# validator: stricter refusals, reworded messages); they never touch the
# store or the counts, and the goal they produce is in the provenance.  A
# change in them is listed, not refused.
GUARDS="store_check_memory store_memory_available board_validate empty_at end_row read_cell settle_dims tokenize unexpected"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "$old" "$new"; do
    git rev-parse -q --verify "$c^{commit}" >/dev/null ||
        { echo "check-search-code: no commit $c" >&2; exit 2; }
done

# The BFS kernel is one unit: bfs.c and, since it was split by concern,
# the parts it includes and the slice's file (a function may move between
# them), concatenated in include order without their #include lines.
KERNEL="bfs_kernel.h bfs_cursor.h bfs_marking.h bfs_moves.h bfs_scan.h bfs_passes.h
        bfs_layer.h bfs.c bfs_slice.c"

# the kernel's text at commit C into FILE
kernel_text() {
    : > "$2"
    for part in $KERNEL; do
        p=$(git ls-tree -r --name-only "$1" -- src | awk -v b="$part" -F/ '$NF == b' | head -n 1)
        [ -n "$p" ] && git show "$1:$p" | grep -v '^#include ' >> "$2"
    done
    return 0
}

# path of file NAME (e.g. engine/bfs.c or bfs.h) at commit C
locate() {
    base=${2##*/}
    git ls-tree -r --name-only "$1" -- src include |
        awk -v b="$base" -F/ '$NF == b' | head -n 1
}

# split FILE (C text) into DIR/f.NAME (each function's text), DIR/top
# (everything else without comments and prototypes), DIR/names (appended)
split_c() {
    awk -v dir="$2" -v file="$3" '
        function flush_top() { if (stmt != "") { if (stmt !~ /\)[ \t]*;[ \t]*$/ || stmt ~ /=/) print stmt > (dir "/top"); stmt = "" } }
        BEGIN { infn = 0; incomment = 0 }
        {
            line = $0
            if (infn) {
                body = body line "\n"
                if (line ~ /^}/) { print body > (dir "/f." name); close(dir "/f." name)
                                   print name >> (dir "/names"); infn = 0; sig = "" }
                next
            }
            # comments outside functions are left out
            if (!incomment) gsub(/[ \t]*\/\*.*\*\//, "", line)
            if (incomment) { if (line ~ /\*\//) incomment = 0; next }
            if (line ~ /^[ \t]*\/\*/) { if (line !~ /\*\//) incomment = 1; next }
            if (line ~ /^[ \t]*\/\//) next
            if (line == "{" && sig != "") {
                # the name is the last word before the parameter list, once
                # attributes (whose parentheses come first) are taken out
                s = sig; gsub(/__attribute__[ \t]*\(\([^()]*(\([^()]*\))?[^()]*\)\)/, "", s)
                sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/); name = w[n]
                if (name in seen) {
                    printf "check-search-code: two functions named %s in %s\n", name, file > "/dev/stderr"
                    exit 2
                }
                seen[name] = 1
                infn = 1; body = sig "\n{\n"; stmt = ""; next
            }
            if (line ~ /^[A-Za-z_].*\(/ && line !~ /;[ \t]*$/ && line !~ /^#/) { sig = line; stmt = line; next }
            if (sig != "" && line !~ /^[ \t]*$/ && line !~ /;[ \t]*$/) { sig = sig " " line; stmt = stmt "\n" line; next }
            if (sig != "" && line ~ /;[ \t]*$/) { stmt = stmt "\n" line; sig = ""; flush_top(); next }
            sig = ""
            if (line ~ /^[ \t]*$/) { flush_top(); next }
            stmt = (stmt == "" ? line : stmt "\n" line)
            if (line ~ /;[ \t]*$/ || line ~ /^#/ || line ~ /^}/) flush_top()
        }
        END { flush_top() }
    ' "$1"
    touch "$2/top" "$2/names"
}

# only_additions KEY: the text outside functions at NEW is that at OLD plus
# conditional-compilation lines and #defines of names that no search file
# at OLD mentions (so no old code can see them)
only_additions() {
    diff "$tmp/old.$1/top" "$tmp/new.$1/top" | grep '^[<>]' | while IFS= read -r l; do
        case $l in
        '<'*) exit 1 ;;
        esac
        if printf '%s\n' "$l" | grep -Eq '^> *#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b'; then
            continue
        fi
        name=$(printf '%s\n' "$l" | sed -n 's/^> *#[ \t]*define[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p')
        [ -n "$name" ] || exit 1
        if cat "$tmp"/old/* | grep -qw "$name"; then exit 1; fi
    done
}

mkdir -p "$tmp/old" "$tmp/new"
same_files="" changed_files=""
for f in $FILES; do
    po=$(locate "$old" "$f"); pn=$(locate "$new" "$f")
    key=$(echo "$f" | tr / _)
    # a file of the list absent at a commit (move_tables.c before it was
    # split out of bfs.c) counts as empty there: absent at both, it is the
    # same; at one, its text outside functions differs and the check fails
    if [ "$f" = engine/bfs.c ]; then
        kernel_text "$old" "$tmp/old/$key"
        kernel_text "$new" "$tmp/new/$key"
    else
        if [ -n "$po" ]; then git show "$old:$po" > "$tmp/old/$key"; else : > "$tmp/old/$key"; fi
        if [ -n "$pn" ]; then git show "$new:$pn" > "$tmp/new/$key"; else : > "$tmp/new/$key"; fi
    fi
    if cmp -s "$tmp/old/$key" "$tmp/new/$key"; then
        same_files="$same_files ${f##*/}"
        continue
    fi
    changed_files="$changed_files ${f##*/}"
    for side in old new; do
        mkdir -p "$tmp/$side.$key"
        split_c "$tmp/$side/$key" "$tmp/$side.$key" "$f at $side"
    done
    # outside functions, only added conditional-compilation lines are
    # allowed (they guard new functions, e.g. a BMI2 variant; a guard around
    # a reached function would have to change its text or its name's
    # uniqueness, which the function comparison below sees)
    if ! cmp -s "$tmp/old.$key/top" "$tmp/new.$key/top" && ! only_additions "$key"; then
        echo "check-search-code: $f differs outside its functions between $old and $new:"
        diff "$tmp/old.$key/top" "$tmp/new.$key/top" | head -n 20
        exit 1
    fi
done

# every function of the search files at NEW, one text per name
mkdir -p "$tmp/fn"
for f in $FILES; do
    key=$(echo "$f" | tr / _)
    mkdir -p "$tmp/all.$key"
    split_c "$tmp/new/$key" "$tmp/all.$key" "$f at new"
    for n in $(cat "$tmp/all.$key/names"); do cp "$tmp/all.$key/f.$n" "$tmp/fn/$n"; done
done
# reachable from the roots: a breadth-first walk over the names of
# functions of these files that appear in a reachable function's body
for n in $(ls "$tmp/fn"); do
    grep -ow '[A-Za-z_][A-Za-z0-9_]*' "$tmp/fn/$n" | sort -u | sed "s/^/$n /"
done > "$tmp/words"
reach=" $(awk -v roots="$ROOTS" '
    { uses[$1] = uses[$1] " " $2; isfn[$1] = 1 }
    END {
        n = split(roots, q, /[ \t\n]+/); head = 1
        for (i = 1; i <= n; i++) if (q[i] != "" && isfn[q[i]] && !seen[q[i]]) { seen[q[i]] = 1; queue[++tail] = q[i] }
        while (head <= tail) {
            f = queue[head++]; printf "%s ", f
            m = split(uses[f], w, " ")
            for (i = 1; i <= m; i++) if (isfn[w[i]] && !seen[w[i]]) { seen[w[i]] = 1; queue[++tail] = w[i] }
        }
    }' "$tmp/words")"

# functions that differ (or exist on one side only) in the changed files
unreached=""
for f in $changed_files; do
    key=$(for g in $FILES; do case $g in */"$f" | "$f") echo "$g" | tr / _ ;; esac; done)
    for n in $(cat "$tmp/old.$key/names" "$tmp/new.$key/names" | sort -u); do
        if [ -f "$tmp/old.$key/f.$n" ] && [ -f "$tmp/new.$key/f.$n" ] &&
            cmp -s "$tmp/old.$key/f.$n" "$tmp/new.$key/f.$n"; then
            continue
        fi
        case " $GUARDS " in
        *" $n "*) unreached="$unreached $n (input check)"; continue ;;
        esac
        case "$reach" in
        *" $n "*)
            echo "check-search-code: $n ($f), which the search reaches, differs between $old and $new"
            exit 1 ;;
        esac
        unreached="$unreached $n"
    done
done
nreach=$(echo $reach | wc -w)
if [ -z "$changed_files" ]; then
    echo "search code unchanged from $old to $(git rev-parse --short "$new"): every file identical"
else
    echo "search code unchanged from $old to $(git rev-parse --short "$new"): the $nreach functions the search reaches are identical; changed elsewhere in${changed_files}:${unreached:- comments and prototypes only}"
fi
