#!/bin/sh
# check-layers.sh [ROOT] - fail when a source file includes a header of a
# higher layer than its own.
#
# The layers, lowest first; a file may include headers of its own layer and
# of the layers below it, never above:
#
#   core        board, parity, rank, rng, error, report, provenance
#   engine      the index spaces, the two-bit store, the BFS
#   files       database files, checkpoints: what the engine writes and reads
#   heuristics  heuristic values (whole-board tables, IDA* incremental forms)
#   solvers     IDA*, bidirectional BFS, layer-by-layer, scrambles
#   analysis    heuristic sweeps, the parity theorem checked exhaustively
#   serve       the web server (only the command line sits above it)
#   cli         the command line: main, option layer, one file per command
#
# A header include/slide/X.h belongs to the layer of the folder that holds
# src/*/X.c; a header with no source file belongs to core.  A file in a
# folder that is not listed above is an error too, so a new folder has to be
# placed in the order here.  `--self-test` checks that the check can fail.
set -u
LAYERS="core engine files heuristics solvers analysis serve cli"

layer_rank() {      # layer_rank NAME -> its position, or nothing
    i=0
    for l in $LAYERS; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
}

header_layer() {    # header_layer ROOT X -> layer of include/slide/X.h
    for d in "$1"/src/*/; do
        [ -f "$d$2.c" ] && { basename "$d"; return; }
    done
    echo core
}

check() {           # check ROOT -> 0 when every include keeps to the order
    root=$1
    bad=0
    for f in "$root"/src/*/*.[ch] "$root"/include/slide/*.h; do
        [ -f "$f" ] || continue
        case $f in
            "$root"/include/slide/*) own=$(header_layer "$root" "$(basename "$f" .h)") ;;
            *) own=$(basename "$(dirname "$f")") ;;
        esac
        own_rank=$(layer_rank "$own")
        if [ -z "$own_rank" ]; then
            echo "check-layers: ${f#"$root"/} is in folder $own, which is not a layer (known: $LAYERS)" >&2
            bad=1
            continue
        fi
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"slide\/\([a-z0-9_]*\)\.h".*/\1/p' "$f"); do
            hl=$(header_layer "$root" "$h")
            if [ "$(layer_rank "$hl")" -gt "$own_rank" ]; then
                echo "check-layers: ${f#"$root"/} ($own) includes slide/$h.h ($hl), a higher layer" >&2
                bad=1
            fi
        done
    done
    return $bad
}

self_test() {       # a tree with one upward include must fail, a clean one pass
    t=$(mktemp -d) || exit 1
    trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/src/core" "$t/src/engine" "$t/include/slide"
    printf '#include "slide/low.h"\n' >"$t/src/engine/high.c"
    printf '\n' >"$t/src/core/low.c"
    : >"$t/include/slide/low.h"
    : >"$t/include/slide/high.h"
    check "$t" 2>/dev/null || { echo "check-layers: self-test: a clean tree failed" >&2; exit 1; }
    printf '#include "slide/high.h"\n' >"$t/src/core/low.c"
    if check "$t" 2>/dev/null; then
        echo "check-layers: self-test: an upward include passed" >&2
        exit 1
    fi
    mkdir -p "$t/src/misc"
    printf '\n' >"$t/src/core/low.c"
    : >"$t/src/misc/x.c"
    if check "$t" 2>/dev/null; then
        echo "check-layers: self-test: an unknown folder passed" >&2
        exit 1
    fi
    echo "check-layers: self-test passed"
}

if [ "${1:-}" = "--self-test" ]; then
    self_test
    exit 0
fi
if check "${1:-.}"; then
    echo "check-layers: every include keeps to the layers ($LAYERS)"
else
    exit 1
fi
