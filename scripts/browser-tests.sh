#!/bin/sh
# browser-tests.sh - run the browser tests of slide serve (tests/browser:
# headless Debian chromium driven by puppeteer-core) when slide was built
# with the server and chromium and node are present; otherwise say in one
# line why they are skipped.  SLIDE names the binary (make test sets it;
# default build/slide); screenshots go to $SHOTS (default
# build/browser-shots).  Run alone from the repository root:
#   sh scripts/browser-tests.sh
# HAVE_SERVE (make test sets it) is otherwise read from the build folder
# of SLIDE (its have-serve file, written by make).
set -u
dir=tests/browser
slide=${SLIDE:-$(pwd)/build/slide}
if [ -z "${HAVE_SERVE:-}" ] && [ -f "$(dirname "$slide")/have-serve" ]; then
    HAVE_SERVE=$(cat "$(dirname "$slide")/have-serve")
fi
skip() {
    echo "browser tests skipped: $1"
    exit 0
}
[ "${HAVE_SERVE:-0}" = 1 ] ||
    skip "slide was built without the web server (make deps, or apt-get install libmicrohttpd-dev libjansson-dev, then make test)"
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || skip "no chromium (make deps, or apt-get install chromium)"
command -v node >/dev/null 2>&1 || skip "no node (make deps, or apt-get install nodejs npm)"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$major" -ge 18 ] || skip "node $major is older than 18 (puppeteer-core needs 18)"
if [ ! -f "$dir/node_modules/puppeteer-core/package.json" ]; then
    command -v npm >/dev/null 2>&1 || skip "puppeteer-core is not installed and there is no npm"
    echo "browser tests: installing puppeteer-core into $dir/node_modules (npm ci)"
    (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --silent >/dev/null 2>&1) ||
        skip "npm could not install puppeteer-core (no network?)"
fi
shots=${SHOTS:-build/browser-shots}
mkdir -p "$shots"
shots=$(cd "$shots" && pwd)
cd "$dir" && SLIDE=$slide CHROMIUM=$chromium SHOTS=$shots timeout 600 node serve.test.mjs
