#!/bin/sh
# deps.sh build|test|results|all - make sure the packages of the full slide
# tool are present, before make decides what to build (the Makefile runs it
# when it starts; `make deps` runs "all").
#
#   required  the C compiler ($CC, default cc: Debian's gcc), pkg-config,
#             zlib (build); cmocka (test, all); gnuplot (results: make
#             results draws its figures with it)
#   full tool libmicrohttpd + Jansson (slide serve), Open MPI (build/slide-mpi,
#             slide bfs --mpi); chromium, node and npm (the browser tests:
#             all only - make test says in one line when it skips them);
#             Python 3 with numpy, setuptools, its headers, pytest and
#             matplotlib (make python, its tests and make python-docs: all
#             only; scripts/python-find.sh decides what is there)
#
# As root with apt-get, installs what is missing (the package lists are
# refreshed first).  Otherwise, and when apt-get fails, a missing required
# package stops the build with the exact command to run (exit 1), and each
# part of the full tool that is left out gets ONE line on stderr (apt-get's
# own output is kept out of the build's; its "E:" lines are shown when an
# install fails):
#   slide: building without slide serve: libmicrohttpd-dev libjansson-dev are missing (...)
# An install that failed is not retried by every make: the packages are
# written to $DEPS_STAMP (the Makefile: build/deps-failed) and only `make
# deps` tries them again.  NO_SERVE=1 and NO_MPI=1 (make HAVE_SERVE=0,
# HAVE_MPI=0) leave those parts out on purpose: no install, no line.
set -u
what=${1:-all}
case $what in
build | test | results | all) ;;
*) echo "usage: deps.sh build|test|results|all" >&2; exit 2 ;;
esac
stamp=${DEPS_STAMP:-}
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { have_cmd pkg-config && pkg-config --exists "$1"; }
# DEPS_INCLUDE: where headers are looked for (a test's stand-in machine)
have_header() { [ -f "${DEPS_INCLUDE:-/usr/include}/$1" ]; }

# The package of the C compiler make calls, when it is missing: cc and gcc
# come with Debian's gcc (a fresh image may hold gcc-12 without cc).
missing_compiler() {
    set -- ${CC:-cc}
    have_cmd "$1" && return
    case ${1##*/} in
    cc | gcc | c99) echo gcc ;;
    *) echo "${1##*/}" ;;
    esac
}

# The packages of each part that are missing here.
missing_required() {
    m=$(missing_compiler)
    have_cmd pkg-config || m="$m pkg-config"
    have_pkg zlib || have_header zlib.h || m="$m zlib1g-dev"
    if [ "$what" != build ] && [ "$what" != results ]; then
        have_pkg cmocka || have_header cmocka.h || m="$m libcmocka-dev"
    fi
    echo $m $(missing_gnuplot)
}
missing_gnuplot() {
    [ "$what" = results ] || [ "$what" = all ] || return
    have_cmd gnuplot || echo gnuplot-nox
}
missing_serve() {
    m=""
    [ "${NO_SERVE:-0}" = 1 ] && return
    # pkg-config only: the Makefile builds slide serve when it finds them
    have_pkg libmicrohttpd || m="$m libmicrohttpd-dev"
    have_pkg jansson || m="$m libjansson-dev"
    echo $m
}
missing_mpi() {
    [ "${NO_MPI:-0}" = 1 ] && return
    have_cmd mpicc || echo libopenmpi-dev openmpi-bin
}
missing_browser() {
    [ "$what" = all ] || return
    m=""
    have_cmd chromium || have_cmd chromium-browser || m="$m chromium"
    have_cmd node || m="$m nodejs"
    have_cmd npm || m="$m npm"
    echo $m
}

missing_python() {
    [ "$what" = all ] || return
    here=$(dirname "$0")
    if py=$(sh "$here/python-find.sh" --quiet); then
        m=""
        "$py" -c 'import pytest' >/dev/null 2>&1 || m="python3-pytest"
        "$py" -c 'import matplotlib' >/dev/null 2>&1 || m="$m python3-matplotlib"
        echo $m
    else
        echo python3-dev python3-numpy python3-setuptools python3-pytest python3-matplotlib
    fi
}

# "a b are missing" / "a is missing"
are() { set -- $1; [ $# -gt 1 ] && echo "$* are missing" || echo "$* is missing"; }

required=$(missing_required)
optional="$(missing_serve) $(missing_mpi) $(missing_browser) $(missing_python)"
optional=$(echo $optional)
[ -z "$required$optional" ] && { [ -n "$stamp" ] && rm -f "$stamp"; exit 0; }

if [ "$(id -u)" = 0 ] && have_cmd apt-get; then
    # a failed optional install is tried again only by `make deps` (all)
    tried=""
    [ -n "$stamp" ] && [ -f "$stamp" ] && [ "$what" != all ] && tried=$(cat "$stamp")
    try=$optional
    [ -n "$tried" ] && [ "$tried" = "$optional" ] && try=""
    if [ -n "$required$try" ]; then
        echo "slide: installing $(echo $required $try) with apt-get" >&2
        log=$(mktemp)
        # a fresh image may have no package lists
        apt-get update -qq >>"$log" 2>&1 || true
        apt_install() {
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                "$@" >>"$log" 2>&1
        }
        # one call for everything; part by part if that fails, so that one
        # package the archive lacks does not keep the others out
        if ! apt_install $required $try; then
            [ -z "$required" ] || apt_install $required
            for part in "$(missing_serve)" "$(missing_mpi)" "$(missing_browser)" \
                "$(missing_python)"; do
                [ -n "$part" ] && apt_install $part
            done
            grep '^E:' "$log" | sort -u | sed 's/^/slide: apt-get: /' >&2
        fi
        rm -f "$log"
    fi
    required=$(missing_required)
    left="$(missing_serve) $(missing_mpi) $(missing_browser) $(missing_python)"
    left=$(echo $left)
    if [ -n "$stamp" ]; then
        if [ -n "$left" ]; then
            mkdir -p "$(dirname "$stamp")" && echo "$left" > "$stamp"
        else
            rm -f "$stamp"
        fi
    fi
    how="apt-get could not install them; make deps tries again"
else
    how="make deps as root, or sudo apt-get install -y"
fi

# One line for each part of the full tool that is left out.
hint() { # packages
    case $how in
    make\ deps*) echo "$how $1" ;;
    *) echo "$how" ;;
    esac
}
s=$(missing_serve)
[ -n "$s" ] && echo "slide: building without slide serve: $(are "$s") ($(hint "$s"))" >&2
s=$(missing_mpi)
[ -n "$s" ] && echo "slide: building without build/slide-mpi (slide bfs --mpi): $(are "$s") ($(hint "$s"))" >&2
s=$(missing_browser)
[ -n "$s" ] && echo "slide: no browser tests: $(are "$s") ($(hint "$s"))" >&2
s=$(missing_python)
[ -n "$s" ] && echo "slide: no Python package (make python) or its tests: $(are "$s") ($(hint "$s"))" >&2
required=$(missing_required)
[ -z "$required" ] && exit 0
g=$(missing_gnuplot)
if [ "$required" = "$g" ]; then
    echo "slide: make $what draws its figures with gnuplot: $(are "$g") ($(hint "$g"))" >&2
else
    echo "slide: cannot build: $(are "$required") ($(hint "$required"))" >&2
fi
exit 1
