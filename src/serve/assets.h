/*
 * assets.h - the page's files, embedded in the binary at build time
 * (internal).  scripts/embed-assets.sh writes the table from
 * src/serve/web/ into build/gen/serve_assets.c.
 */
#ifndef SLIDE_SERVE_ASSETS_H
#define SLIDE_SERVE_ASSETS_H

#include <stddef.h>

struct serve_asset {
    const char *path;          /* URL path, "/app.js"; "/" is index.html */
    const char *type;          /* Content-Type */
    const unsigned char *data;
    size_t len;
};

extern const struct serve_asset serve_assets[];
extern const size_t serve_asset_count;

#endif
