#!/bin/sh
# screenshots.sh - docs/slide-serve.png (1280 px wide) and
# docs/slide-serve-phone.png (390x844) of slide serve's page, taken in
# headless chromium (tests/browser/screenshots.mjs) from the build of a
# clean commit: the page's footer names that commit, so a tree with
# uncommitted code is refused (ALLOW_DIRTY=1 takes it all the same).
set -eu
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain -- src include Makefile scripts tests)" ] &&
    [ "${ALLOW_DIRTY:-0}" != 1 ]; then
    echo "screenshots: uncommitted changes in src, include, Makefile, scripts or tests; commit them first (the page's footer names the commit) or ALLOW_DIRTY=1" >&2
    exit 1
fi
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || { echo "screenshots: no chromium (make deps, or apt-get install chromium)" >&2; exit 1; }
if [ ! -f tests/browser/node_modules/puppeteer-core/package.json ]; then
    (cd tests/browser && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --silent >/dev/null 2>&1) ||
        { echo "screenshots: npm could not install puppeteer-core (tests/browser)" >&2; exit 1; }
fi
slide=$(pwd)/${BUILD:-build}/slide
docs=$(pwd)/docs
cd tests/browser && SLIDE=$slide CHROMIUM=$chromium timeout 300 node screenshots.mjs "$docs"
