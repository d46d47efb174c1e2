#!/bin/sh
# fuzz.sh [SECONDS] - run libFuzzer on the database loader (tests/fuzz/fuzz_db.c)
# and on the board parser (tests/fuzz/fuzz_board.c), SECONDS each (default 180),
# with AddressSanitizer and UndefinedBehaviorSanitizer.  Not part of make test.
#
# Needs clang-14 and its libFuzzer runtime (Debian: apt-get install clang-14
# libclang-rt-14-dev libomp-14-dev).  Seeds: small databases written by
# build/slide (every encoding, compact and full spaces) and a few boards.
# Inputs that crash land in build-fuzz/crashes/; copy each into
# tests/data/fuzz/db/ or tests/data/fuzz/board/, where test_db replays them
# under make test and make asan.
set -eu
secs=${1:-180}
cc=${FUZZ_CC:-clang-14}
out=build-fuzz
command -v "$cc" >/dev/null 2>&1 || {
    echo "fuzz.sh: $cc not found; install with: apt-get install -y clang-14 libclang-rt-14-dev libomp-14-dev" >&2
    exit 1
}
make -s all
mkdir -p $out/corpus/db $out/corpus/board $out/crashes
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fopenmp -Iinclude -Itests/fuzz
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
lib=$(ls src/*/*.c | grep -v '^src/cli/')
# shellcheck disable=SC2086
$cc $flags -o $out/fuzz_db tests/fuzz/fuzz_db.c $lib -lz -lm
# shellcheck disable=SC2086
$cc $flags -o $out/fuzz_board tests/fuzz/fuzz_board.c $lib -lz -lm

# seeds: small databases of every encoding and kind, and the regression inputs
for size in 1x1 1x3 2x2 2x3 3x2; do
    for enc in 1 2 8; do
        for kind in compact full; do
            build/slide bfs $size --space $kind --save $out/corpus/db/$size-$enc-$kind.db \
                --encoding $enc --no-progress >/dev/null 2>&1
        done
    done
done
printf 'P\000\001' >$out/corpus/db/payload-1
printf 'P\001\000\000\004' >$out/corpus/db/payload-2
printf 'P\002\000\000\000\000\000\003' >$out/corpus/db/payload-8
cp tests/data/fuzz/db/* $out/corpus/db/ 2>/dev/null || true
cp tests/data/fuzz/board/* $out/corpus/board/ 2>/dev/null || true
printf '1 2 3/4 5 6/7 8 0' >$out/corpus/board/s1
printf '1,2,3\n4,5,6\n7,8,_\n' >$out/corpus/board/s2
printf '0 1 2 3' >$out/corpus/board/s3
printf '3x4' >$out/corpus/board/s4

status=0
for target in db board; do
    echo "fuzz.sh: fuzzing $target for $secs s" >&2
    $out/fuzz_$target -max_total_time="$secs" -max_len=8192 -rss_limit_mb=2048 \
        -artifact_prefix=$out/crashes/$target- -print_final_stats=1 \
        $out/corpus/$target 2>$out/$target.log || status=1
    tail -n 12 $out/$target.log >&2
done
ls $out/crashes >&2
exit $status
