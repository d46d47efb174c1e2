#!/bin/sh
# python-find.sh - print the Python interpreter the slide package is built
# for and tested with: the first of $PYTHON, /usr/bin/python3 (Debian's,
# where python3-numpy installs numpy) and every python3 on PATH in order
# (`which -a python3`: a pyenv or conda python3 may come first and have no
# numpy) that can `import numpy` and has its Python.h (python3-dev).
# Exit 0 with the path on stdout; otherwise exit 1 with ONE line on stderr
# saying what each candidate lacks and what to install:
#   slide: no python3 with numpy and Python.h (/usr/bin/python3: no numpy; ...): apt-get install python3-dev python3-numpy python3-setuptools (or make deps), or PYTHON=/path/to/python3
# --quiet: no line on stderr (make test says itself why it skips the suite).
set -u
quiet=0
[ "${1:-}" = --quiet ] && quiet=1
why=""
seen=" "
if [ -n "${PYTHON:-}" ]; then
    candidates=$PYTHON
else
    candidates="/usr/bin/python3 $(which -a python3 2>/dev/null)"
fi
for py in $candidates; do
    case $seen in *" $py "*) continue ;; esac
    seen="$seen$py "
    [ -x "$py" ] || command -v "$py" >/dev/null 2>&1 || { why="$why${why:+; }$py: not found"; continue; }
    problem=$("$py" - <<'PY' 2>/dev/null
import os, sysconfig
try:
    import numpy
except Exception:
    print("no numpy"); raise SystemExit
try:
    import setuptools
except Exception:
    print("no setuptools"); raise SystemExit
inc = sysconfig.get_paths()["include"]
if not os.path.exists(os.path.join(inc, "Python.h")):
    print("no Python.h in " + inc)
PY
    ) || problem="does not run"
    if [ -z "$problem" ]; then
        command -v "$py"
        exit 0
    fi
    why="$why${why:+; }$py: $problem"
done
[ $quiet = 1 ] || echo "slide: no python3 with numpy, setuptools and Python.h ($why): apt-get install python3-dev python3-numpy python3-setuptools (or make deps), or PYTHON=/path/to/python3" >&2
exit 1
