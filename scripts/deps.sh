#!/bin/sh
# deps.sh build|test|mpi|all - make sure the packages slide needs are present
# (all: also the optional ones of slide serve and its browser tests).
# Open MPI (build/slide-mpi and its tests) is optional: `test` only notes
# that it is missing; `mpi` and `all` install it.
# As root with apt-get, installs what is missing; otherwise prints the exact
# command to run and fails.
set -u
what=${1:-all}
missing=""
have_pkg() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
have_pkg zlib || [ -f /usr/include/zlib.h ] || missing="$missing zlib1g-dev"
if [ "$what" != build ]; then
    have_pkg cmocka || [ -f /usr/include/cmocka.h ] || missing="$missing libcmocka-dev"
fi
if [ "$what" = mpi ] || [ "$what" = all ]; then
    command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev openmpi-bin"
elif [ "$what" = test ] && ! command -v mpicc >/dev/null 2>&1; then
    echo "slide: no mpicc: the MPI tests are skipped (make deps, or apt-get install libopenmpi-dev openmpi-bin)" >&2
fi
# optional (make deps only): slide serve's libraries, and chromium + node for
# its browser tests; without them slide builds and the tests say what they skip
if [ "$what" = all ]; then
    have_pkg libmicrohttpd || [ -f /usr/include/microhttpd.h ] || missing="$missing libmicrohttpd-dev"
    have_pkg jansson || [ -f /usr/include/jansson.h ] || missing="$missing libjansson-dev"
    command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "slide: installing$missing with apt-get" >&2
    # refresh the package lists first: a fresh image may have none
    apt-get update -qq >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2 && exit 0
    echo "slide: apt-get could not install$missing" >&2
    exit 1
fi
echo "slide: missing$missing; install with: sudo apt-get install -y$missing" >&2
exit 1
