/*
 * heuristic_api.c - one's own heuristic as a row of the heuristic table:
 * a struct slide_heuristic_spec given by a program, or loaded from a
 * plugin with dlopen (heuristic_api.h, heuristic.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slide/heuristic.h"

#define SPEC_NAME_MAX 32

static int eval_spec(const struct heuristic *h, const int *cells)
{
    return h->spec->h(cells, h->rows, h->cols, h->spec_user);
}

static int name_ok(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > SPEC_NAME_MAX)
        return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '-'))
            return 0;
    return 1;
}

static int spec_check(const struct slide_heuristic_spec *spec, const char *where,
                      slide_error *err)
{
    if (spec->abi != SLIDE_HEURISTIC_ABI)
        return slide_fail(err, SLIDE_EINVAL, "%s: the heuristic is of API version %d, this "
                          "slide takes version %d (SLIDE_HEURISTIC_ABI in "
                          "slide/heuristic_api.h): rebuild it against this slide's header",
                          where, spec->abi, SLIDE_HEURISTIC_ABI);
    if (!spec->h)
        return slide_fail(err, SLIDE_EINVAL, "%s: the heuristic has no h function", where);
    if (!name_ok(spec->name))
        return slide_fail(err, SLIDE_EINVAL, "%s: the heuristic's name must be 1 to %d "
                          "characters of A-Z a-z 0-9 _ . -", where, SPEC_NAME_MAX);
    if (spec->admissible < 0 || spec->admissible > 2 || spec->consistent < 0 ||
        spec->consistent > 2)
        return slide_fail(err, SLIDE_EINVAL, "%s: the heuristic's claims must be "
                          "SLIDE_CLAIM_NO, _YES or _NONE (0, 1, 2)", where);
    return SLIDE_OK;
}

/* The row and the user data; h->plugin is set by the caller when needed. */
static int bind_spec(struct heuristic *h, const struct slide_heuristic_spec *spec,
                     void *user, const struct board *goal, const char *where,
                     slide_error *err)
{
    int rc = spec_check(spec, where, err);
    if (rc)
        return rc;
    int n = board_cells(goal);
    char *label = strdup(spec->name);
    h->own_def = calloc(1, sizeof *h->own_def);
    if (!label || !h->own_def) {
        free(label);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for the heuristic %s", spec->name);
    }
    *h->own_def = (struct heuristic_def){label, eval_spec, NULL,
                                         (enum heuristic_claim)spec->admissible,
                                         (enum heuristic_claim)spec->consistent,
                                         spec->summary ? spec->summary : "one's own heuristic",
                                         "its author's"};
    h->def = h->own_def;
    h->rows = goal->rows;
    h->cols = goal->cols;
    h->n = n;
    h->spec = spec;
    h->spec_user = user;
    if (spec->init) {
        if (spec->init(goal->cells, goal->rows, goal->cols, &h->spec_user))
            return slide_fail(err, SLIDE_EINVAL, "%s refused the %dx%d board (its init "
                              "returned non-zero)", spec->name, goal->rows, goal->cols);
    }
    return SLIDE_OK;
}

int heuristic_init_spec(struct heuristic *h, const struct slide_heuristic_spec *spec,
                        void *user, const struct board *goal, slide_error *err)
{
    memset(h, 0, sizeof *h);
    if (!spec)
        return slide_fail(err, SLIDE_EINVAL, "no heuristic given");
    int rc = bind_spec(h, spec, user, goal, spec->name ? spec->name : "heuristic", err);
    if (rc)
        heuristic_free(h);
    return rc;
}

static int open_plugin(struct heuristic *h, const char *file, slide_error *err)
{
    struct stat st;
    if (stat(file, &st) != 0)
        return slide_fail(err, SLIDE_EINVAL, "plugin:%s: %s (give a shared object built "
                          "as docs/libslide.md shows)", file, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return slide_fail(err, SLIDE_EINVAL, "plugin:%s: not a regular file", file);
    /* a bare name would be searched for in the library path: make it a path */
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s%s", strchr(file, '/') ? "" : "./", file) >=
        sizeof path)
        return slide_fail(err, SLIDE_EINVAL, "plugin:%s: the path is too long", file);
    h->plugin = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h->plugin) {
        const char *why = dlerror();
        return slide_fail(err, SLIDE_EINVAL, "plugin:%s: not a loadable shared object (%s)",
                          file, why ? why : "dlopen failed");
    }
    return SLIDE_OK;
}

int heuristic_init_plugin(struct heuristic *h, const char *name,
                          const struct board *goal, slide_error *err)
{
    memset(h, 0, sizeof *h);
    const char *file = name + strlen("plugin:");
    if (!*file)
        return slide_fail(err, SLIDE_EINVAL, "plugin: names no file (plugin:FILE.so)");
    int rc = open_plugin(h, file, err);
    if (!rc) {
        dlerror();
        const struct slide_heuristic_spec *spec = dlsym(h->plugin, SLIDE_HEURISTIC_SYMBOL);
        if (!spec)
            rc = slide_fail(err, SLIDE_EINVAL, "plugin:%s exports no %s (a const struct "
                            "slide_heuristic_spec, slide/heuristic_api.h)", file,
                            SLIDE_HEURISTIC_SYMBOL);
        else
            rc = bind_spec(h, spec, NULL, goal, name, err);
    }
    if (rc)
        heuristic_free(h);
    return rc;
}

void heuristic_spec_release(struct heuristic *h)
{
    if (h->spec && h->spec->fini)
        h->spec->fini(h->spec_user);
    h->spec = NULL;
    if (h->plugin)
        dlclose(h->plugin);
    h->plugin = NULL;
}
