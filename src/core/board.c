/*
 * board.c - parsing, validation, formatting and moves of boards (board.h).
 */
#include "slide/board.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int board_alloc(struct board *b, int rows, int cols, slide_error *err)
{
    b->rows = b->cols = 0;
    b->cells = NULL;
    if (rows < 1 || cols < 1 || rows > BOARD_MAX_SIDE || cols > BOARD_MAX_SIDE)
        return slide_fail(err, SLIDE_EINVAL,
                          "a %dx%d board is not allowed (sides 1..%d)", rows,
                          cols, BOARD_MAX_SIDE);
    b->cells = calloc((size_t)rows * (size_t)cols, sizeof *b->cells);
    if (!b->cells)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a %dx%d board",
                          rows, cols);
    b->rows = rows;
    b->cols = cols;
    return SLIDE_OK;
}

void board_free(struct board *b)
{
    free(b->cells);
    b->cells = NULL;
    b->rows = b->cols = 0;
}

int board_copy(struct board *dst, const struct board *src, slide_error *err)
{
    int rc = board_alloc(dst, src->rows, src->cols, err);
    if (rc)
        return rc;
    memcpy(dst->cells, src->cells, (size_t)board_cells(src) * sizeof *src->cells);
    return SLIDE_OK;
}

int board_equal(const struct board *a, const struct board *b)
{
    return a->rows == b->rows && a->cols == b->cols &&
           memcmp(a->cells, b->cells,
                  (size_t)board_cells(a) * sizeof *a->cells) == 0;
}

/* Parse a decimal side length; -1 when not a number in 1..BOARD_MAX_SIDE*10. */
static int parse_side(const char *s, const char **end)
{
    long v = 0;
    if (!isdigit((unsigned char)*s))
        return -1;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s++ - '0');
        if (v > 100L * BOARD_MAX_SIDE)
            v = 100L * BOARD_MAX_SIDE;
    }
    *end = s;
    return (int)v;
}

int board_rectangle(int n, int *rows, int *cols)
{
    int r = 1;
    for (int d = 2; d <= n / d; d++)
        if (n % d == 0)
            r = d;
    if (r == 1)
        return 0;
    *rows = r;
    *cols = n / r;
    return 1;
}

int board_parse_dims(const char *text, int *rows, int *cols, slide_error *err)
{
    const char *p = text, *q;
    int r = parse_side(p, &q);
    if (r < 0 || (*q != 'x' && *q != 'X'))
        return slide_fail(err, SLIDE_EINVAL,
                          "board size \"%s\" is not of the form RxC (e.g. 3x3)",
                          text);
    int c = parse_side(q + 1, &p);
    if (c < 0 || *p != '\0')
        return slide_fail(err, SLIDE_EINVAL,
                          "board size \"%s\" is not of the form RxC (e.g. 3x3)",
                          text);
    if (r < 1 || c < 1 || r > BOARD_MAX_SIDE || c > BOARD_MAX_SIDE)
        return slide_fail(err, SLIDE_EINVAL,
                          "board size %s is not allowed (sides 1..%d)", text,
                          BOARD_MAX_SIDE);
    *rows = r;
    *cols = c;
    return SLIDE_OK;
}

/* A growable list of parsed cell values; -1 marks a value too large to keep. */
struct cell_list {
    int *v;
    size_t len, cap;
};

static int cell_push(struct cell_list *l, int value)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        int *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->len++] = value;
    return 0;
}

struct parse_state {
    struct cell_list cells;
    int nrows;      /* rows seen so far (non-empty ones) */
    size_t row_len; /* cells in the first row */
    size_t cur;     /* cells in the row being read */
};

/* Close the current row; an empty row (blank line, trailing '/') is skipped. */
static int end_row(struct parse_state *s, slide_error *err)
{
    if (s->cur == 0)
        return SLIDE_OK;
    s->nrows++;
    if (s->nrows == 1)
        s->row_len = s->cur;
    else if (s->nrows == 2 && s->row_len == 1 && s->cur > 1)
        return slide_fail(err, SLIDE_EINVAL, "a first line with a single number looks "
                          "like a size header; remove it or use --size");
    else if (s->cur != s->row_len)
        return slide_fail(err, SLIDE_EINVAL, "row %d has %zu cell%s but row 1 has %zu",
                          s->nrows, s->cur, s->cur == 1 ? "" : "s", s->row_len);
    s->cur = 0;
    return SLIDE_OK;
}

/* Read one cell token starting at *pp; advances *pp. */
static int read_cell(const char **pp, struct parse_state *s, slide_error *err)
{
    const char *p = *pp;
    int value;
    if (*p == '_' || *p == '.') {
        value = 0;
        p++;
    } else {
        const char *digits = p;
        long v = 0;
        while (isdigit((unsigned char)*p)) {
            v = v * 10 + (*p++ - '0');
            if (v > BOARD_MAX_TILE) /* no board has it: quote it as written */
                return slide_fail(err, SLIDE_EINVAL, "tile %.*s is out of range (no board "
                                  "has more than %d tiles)", (int)strspn(digits, "0123456789"),
                                  digits, BOARD_MAX_TILE);
        }
        value = (int)v;
    }
    if (*p && !isspace((unsigned char)*p) && *p != ',' && *p != '/')
        return slide_fail(err, SLIDE_EINVAL,
                          "unexpected character '%c' in board text (cells are "
                          "numbers, the blank 0, _ or .; rows end with / or a "
                          "newline)", isprint((unsigned char)*p) ? *p : '?');
    if (cell_push(&s->cells, value))
        return slide_fail(err, SLIDE_ENOMEM, "out of memory parsing a board");
    s->cur++;
    *pp = p;
    return SLIDE_OK;
}

/* A separator where a cell or a row should be. */
static int empty_at(const struct parse_state *s, char sep, slide_error *err)
{
    if (sep == ',')
        return slide_fail(err, SLIDE_EINVAL, "empty cell in row %d after %zu cell%s (two "
                          "commas, or a comma at the start or end of a row)", s->nrows + 1,
                          s->cur, s->cur == 1 ? "" : "s");
    return slide_fail(err, SLIDE_EINVAL, "empty row %d (two /, or a / at the start or end "
                      "of the board)", s->nrows + 1);
}

static int unexpected(char c, slide_error *err)
{
    return slide_fail(err, SLIDE_EINVAL, "unexpected character '%c' in board text (cells "
                      "are numbers, the blank 0, _ or .; rows end with / or a newline)",
                      isprint((unsigned char)c) ? c : '?');
}

/*
 * Cells and rows of text.  A line whose first non-blank character is '#'
 * is a comment; a comma must stand between two cells and a '/' between two
 * rows (an empty cell or row is an error naming where); newlines end rows
 * and blank lines are skipped.
 */
static int tokenize(const char *text, struct parse_state *s, slide_error *err)
{
    int comma = 0, slash = 0, line_start = 1;
    for (const char *p = text; *p;) {
        int rc = SLIDE_OK;
        if (*p == '#' && line_start) {
            p += strcspn(p, "\n");
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r') {
            p++;
            continue;
        }
        line_start = *p == '\n';
        if (*p == ',' && (comma || s->cur == 0))
            return empty_at(s, ',', err);
        if ((*p == '/' || *p == '\n') && comma)
            return empty_at(s, ',', err);
        if (*p == '/' && s->cur == 0)
            return empty_at(s, '/', err);
        if (*p == '/' || *p == '\n') {
            slash = *p == '/' || (slash && s->cur == 0);
            rc = end_row(s, err);
            p++;
        } else if (isspace((unsigned char)*p)) {
            p++;
        } else if (*p == ',') {
            comma = 1;
            p++;
        } else if (isdigit((unsigned char)*p) || *p == '_' || *p == '.') {
            comma = slash = 0;
            rc = read_cell(&p, s, err);
        } else {
            return unexpected(*p, err);
        }
        if (rc)
            return rc;
    }
    if (comma || slash)
        return empty_at(s, comma ? ',' : '/', err);
    return end_row(s, err);
}

/* Decide the dimensions from what was read and what the caller asked for. */
static int settle_dims(const struct parse_state *s, int *rows, int *cols,
                       slide_error *err)
{
    size_t total = s->cells.len;
    if (total == 0)
        return slide_fail(err, SLIDE_EINVAL, "the board text is empty");
    if (*rows > 0 && *cols > 0) {
        size_t need = (size_t)*rows * (size_t)*cols;
        if (total != need)
            return slide_fail(err, SLIDE_EINVAL,
                              "board has %zu cell%s, a %dx%d board needs %zu",
                              total, total == 1 ? "" : "s", *rows, *cols, need);
        if (s->nrows > 1 && (s->nrows != *rows || s->row_len != (size_t)*cols))
            return slide_fail(err, SLIDE_EINVAL,
                              "board has %d row%s of %zu cell%s, expected a %dx%d "
                              "board", s->nrows, s->nrows == 1 ? "" : "s", s->row_len,
                              s->row_len == 1 ? "" : "s", *rows, *cols);
        return SLIDE_OK;
    }
    if (s->nrows > BOARD_MAX_SIDE || s->row_len > BOARD_MAX_SIDE)
        return slide_fail(err, SLIDE_EINVAL,
                          "a board of %d rows of %zu cells is too large (sides "
                          "1..%d)", s->nrows, s->row_len, BOARD_MAX_SIDE);
    *rows = s->nrows;
    *cols = (int)s->row_len;
    return SLIDE_OK;
}

int board_parse(const char *text, int rows, int cols, struct board *out,
                slide_error *err)
{
    struct parse_state s = {0};
    int rc;
    out->rows = out->cols = 0;
    out->cells = NULL;
    if (!text)
        return slide_fail(err, SLIDE_EINVAL, "no board given");
    rc = tokenize(text, &s, err);
    if (!rc)
        rc = settle_dims(&s, &rows, &cols, err);
    if (!rc)
        rc = board_alloc(out, rows, cols, err);
    if (!rc) {
        memcpy(out->cells, s.cells.v, s.cells.len * sizeof *s.cells.v);
        rc = board_validate(out, err);
        if (rc)
            board_free(out);
    }
    free(s.cells.v);
    return rc;
}

int board_goal(struct board *b, int rows, int cols, slide_error *err)
{
    int rc = board_alloc(b, rows, cols, err);
    if (rc)
        return rc;
    int n = rows * cols;
    for (int k = 0; k < n - 1; k++)
        b->cells[k] = k + 1;
    b->cells[n - 1] = 0;
    return SLIDE_OK;
}

/* The named goals: the words of board_parse_goal, blank-first or not. */
static const struct {
    const char *word;
    int blank_first;
} goal_words[] = {{"last", 0}, {"standard", 0}, {"first", 1}, {"blank-first", 1}};

int board_goal_word(const char *text)
{
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    while (len && isspace((unsigned char)*text))
        text++, len--;
    for (size_t i = 0; i < sizeof goal_words / sizeof goal_words[0]; i++)
        if (strlen(goal_words[i].word) == len && strncmp(goal_words[i].word, text, len) == 0)
            return goal_words[i].blank_first;
    return -1;
}

int board_parse_goal(const char *text, int rows, int cols, struct board *out,
                     slide_error *err)
{
    int word = board_goal_word(text);
    if (word < 0)
        return board_parse(text, rows, cols, out, err);
    if (rows <= 0 || cols <= 0)
        return slide_fail(err, SLIDE_EINVAL, "the goal \"%s\" needs the board's size: give "
                          "the size (RxC or --size RxC), or the goal as a board", text);
    int rc = board_goal(out, rows, cols, err);
    if (!rc && word == 1)
        for (int k = 0; k < rows * cols; k++)
            out->cells[k] = k;
    return rc;
}

int board_validate(const struct board *b, slide_error *err)
{
    int n = board_cells(b);
    unsigned char *seen = calloc((size_t)n, 1);
    if (!seen)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory validating a board");
    int rc = SLIDE_OK;
    for (int k = 0; k < n && !rc; k++) {
        int t = b->cells[k];
        if (t < 0 || t >= n)
            rc = n == 1 ? slide_fail(err, SLIDE_EINVAL, "tile %d is out of range: a 1x1 "
                                     "board has no tiles, only the blank", t)
                        : slide_fail(err, SLIDE_EINVAL,
                                     "tile %d is out of range for a %dx%d board (1..%d)",
                                     t, b->rows, b->cols, n - 1);
        else if (seen[t])
            rc = t == 0 ? slide_fail(err, SLIDE_EINVAL,
                                     "the blank appears twice (a board has one "
                                     "blank: 0, _ or .)")
                        : slide_fail(err, SLIDE_EINVAL, "tile %d appears twice", t);
        else
            seen[t] = 1;
    }
    for (int t = 0; t < n && !rc; t++)
        if (!seen[t])
            rc = t == 0 ? slide_fail(err, SLIDE_EINVAL,
                                     "the board has no blank (write it 0, _ or .)")
                        : slide_fail(err, SLIDE_EINVAL,
                                     "tile %d is missing (a %dx%d board has tiles "
                                     "1..%d and one blank)", t, b->rows, b->cols,
                                     n - 1);
    free(seen);
    return rc;
}

size_t board_format(const struct board *b, char *buf, size_t len)
{
    size_t need = 0;
    int n = board_cells(b);
    for (int k = 0; k < n; k++) {
        char sep = k == 0 ? '\0' : (k % b->cols == 0 ? '/' : ' ');
        char tmp[16];
        int w = sep ? snprintf(tmp, sizeof tmp, "%c%d", sep, b->cells[k])
                    : snprintf(tmp, sizeof tmp, "%d", b->cells[k]);
        if (need + (size_t)w < len)
            memcpy(buf + need, tmp, (size_t)w);
        need += (size_t)w;
    }
    if (len)
        buf[need < len ? need : len - 1] = '\0';
    return need;
}

int board_blank(const struct board *b)
{
    int n = board_cells(b);
    for (int k = 0; k < n; k++)
        if (b->cells[k] == 0)
            return k;
    return -1;
}

int board_step(int rows, int cols, int blank, enum move m)
{
    int r = blank / cols, c = blank % cols;
    switch (m) {
    case MOVE_UP:    return r > 0 ? blank - cols : -1;
    case MOVE_DOWN:  return r < rows - 1 ? blank + cols : -1;
    case MOVE_LEFT:  return c > 0 ? blank - 1 : -1;
    case MOVE_RIGHT: return c < cols - 1 ? blank + 1 : -1;
    }
    return -1;
}

int board_move(struct board *b, int *blank, enum move m)
{
    int to = board_step(b->rows, b->cols, *blank, m);
    if (to < 0)
        return -1;
    b->cells[*blank] = b->cells[to];
    b->cells[to] = 0;
    *blank = to;
    return 0;
}

char move_letter(enum move m) { return "UDLR"[m & 3]; }

int move_parse(char c)
{
    switch (c) {
    case 'U': case 'u': return MOVE_UP;
    case 'D': case 'd': return MOVE_DOWN;
    case 'L': case 'l': return MOVE_LEFT;
    case 'R': case 'r': return MOVE_RIGHT;
    }
    return -1;
}
