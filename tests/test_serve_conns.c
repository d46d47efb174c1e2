/*
 * test_serve_conns.c - the pieces of slide serve that decide, without
 * HTTP, which connection gives way to a new one (conns.h, issue 39 item
 * 7) and which request targets are refused before they are decoded
 * (target.h, items 6 and 8).  The connections are socket pairs: the
 * server's end is registered, the test reads the other end to see which
 * were shut down.  The expected victims are worked out here from the rule
 * (lowest rank, then oldest), not taken from the code.
 */
#include "testutil.h"

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../src/serve/conns.h"
#include "../src/serve/target.h"

#define PAIRS 8

struct rig {
    struct conns cs;
    int server[PAIRS], client[PAIRS];
    struct conn *c[PAIRS];
};

static struct conn_addr addr(int last)
{
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(0x7f000000u | (unsigned)last);
    return conns_address((struct sockaddr *)&a);
}

/* Caps: `total` connections, `per` from one address; deadlines far off.
 * (Not freed when a test fails: its sweeper may still run.) */
static struct rig *rig_new(long total, long per)
{
    struct rig *r = calloc(1, sizeof *r);
    struct conns_limits l = {100, 100, 100, total, per};
    slide_error err;
    assert_int_equal(conns_init(&r->cs, &l, &err), SLIDE_OK);
    for (int i = 0; i < PAIRS; i++) {
        int sv[2];
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        r->server[i] = sv[0];
        r->client[i] = sv[1];
        r->c[i] = NULL;
    }
    return r;
}

static void rig_free(struct rig *r)
{
    for (int i = 0; i < PAIRS; i++) {
        conns_remove(&r->cs, r->c[i]);
        close(r->server[i]);
        close(r->client[i]);
    }
    conns_free(&r->cs);
    free(r);
}

/* Connection i opens from 127.0.0.`from` in state st; each one is newer
 * than the ones before (a millisecond apart). */
static void open_conn(struct rig *r, int i, int from, enum conn_state st)
{
    struct conn_addr a = addr(from);
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
    assert_non_null(r->c[i] = conns_add(&r->cs, r->server[i], &a));
    if (st != CONN_HEAD)
        conns_set(&r->cs, r->c[i], st);
}

/* 1 if connection i was shut down (its client end reads the end). */
static int was_cut(const struct rig *r, int i)
{
    char c;
    ssize_t k = recv(r->client[i], &c, 1, MSG_DONTWAIT | MSG_PEEK);
    return k == 0;
}

/* The connections shut down, as a bit set. */
static unsigned cut_set(const struct rig *r)
{
    unsigned m = 0;
    for (int i = 0; i < PAIRS; i++)
        m |= (unsigned)was_cut(r, i) << i;
    return m;
}

/* Below both caps nothing is evicted; at the total cap the oldest HEAD
 * goes first, then the oldest BODY, then the oldest SENDING, and WORKING
 * never: with all at work a new one is refused.  (Each one admitted is
 * then opened, at work.) */
static void test_eviction_order(void **state)
{
    (void)state;
    struct rig *r = rig_new(5, 5);
    open_conn(r, 0, 1, CONN_SENDING);
    open_conn(r, 1, 2, CONN_BODY);
    open_conn(r, 2, 3, CONN_HEAD);
    open_conn(r, 3, 4, CONN_WORKING);
    open_conn(r, 4, 5, CONN_HEAD);
    struct conn_addr a = addr(9);
    assert_int_equal(cut_set(r), 0u);
    assert_int_equal(conns_admit(&r->cs, &a), 1); /* 5 open: one must go */
    assert_int_equal(cut_set(r), 1u << 2);        /* the older HEAD */
    open_conn(r, 5, 9, CONN_WORKING);
    assert_int_equal(conns_admit(&r->cs, &a), 1);
    assert_int_equal(cut_set(r), 1u << 2 | 1u << 4);
    open_conn(r, 6, 9, CONN_WORKING);
    assert_int_equal(conns_admit(&r->cs, &a), 1);
    assert_int_equal(cut_set(r), 1u << 2 | 1u << 4 | 1u << 1); /* then BODY */
    open_conn(r, 7, 9, CONN_WORKING);
    assert_int_equal(conns_admit(&r->cs, &a), 1);
    assert_int_equal(cut_set(r), 1u << 2 | 1u << 4 | 1u << 1 | 1u << 0); /* SENDING */
    assert_int_equal(conns_admit(&r->cs, &a), 1); /* 4 live, under the cap of 5 */
    r->cs.limits.connections = 4;
    assert_int_equal(conns_admit(&r->cs, &a), 0); /* 4 live, all at work: refused */
    assert_int_equal(cut_set(r), 1u << 2 | 1u << 4 | 1u << 1 | 1u << 0);
    assert_int_equal(r->cs.evicted, 4);
    rig_free(r);
}

/* The per-address cap evicts from that address only, the oldest first;
 * an address whose connections are all at work is refused while the
 * others still get in. */
static void test_eviction_per_address(void **state)
{
    (void)state;
    struct rig *r = rig_new(8, 2);
    open_conn(r, 0, 1, CONN_HEAD);
    open_conn(r, 1, 2, CONN_HEAD);
    open_conn(r, 2, 2, CONN_HEAD);
    open_conn(r, 3, 3, CONN_WORKING);
    open_conn(r, 4, 3, CONN_WORKING);
    struct conn_addr two = addr(2), three = addr(3), four = addr(4);
    assert_int_equal(conns_admit(&r->cs, &two), 1);
    assert_int_equal(cut_set(r), 1u << 1); /* 127.0.0.2's older one, not 127.0.0.1's */
    assert_int_equal(conns_admit(&r->cs, &three), 0);
    assert_int_equal(conns_admit(&r->cs, &four), 1);
    assert_int_equal(cut_set(r), 1u << 1);
    rig_free(r);
}

/* A connection in HEAD whose whole head waits unread in its socket is
 * passed over for one whose head is incomplete, even a newer one. */
static void test_waiting_head_kept(void **state)
{
    (void)state;
    struct rig *r = rig_new(2, 2);
    open_conn(r, 0, 1, CONN_HEAD);
    open_conn(r, 1, 1, CONN_HEAD);
    static const char whole[] = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    static const char half[] = "GET / HTTP/1.1\r\nHost: 127.0";
    assert_int_equal(send(r->client[0], whole, sizeof whole - 1, 0), (ssize_t)sizeof whole - 1);
    assert_int_equal(send(r->client[1], half, sizeof half - 1, 0), (ssize_t)sizeof half - 1);
    struct conn_addr a = addr(1);
    assert_int_equal(conns_admit(&r->cs, &a), 1);
    assert_int_equal(cut_set(r), 1u << 1);
    rig_free(r);
}

/* The request targets refused before decoding, at their boundaries. */
static void test_targets(void **state)
{
    (void)state;
    char why[256], *t = malloc(SERVE_MAX_TARGET + 2);
    assert_int_equal(target_check(NULL, why, sizeof why), 0);
    assert_int_equal(target_check("/", why, sizeof why), 0);
    memset(t, 'a', SERVE_MAX_TARGET);
    t[0] = '/';
    t[SERVE_MAX_TARGET] = '\0';
    assert_int_equal(target_check(t, why, sizeof why), 0);
    t[SERVE_MAX_TARGET] = 'a';
    t[SERVE_MAX_TARGET + 1] = '\0';
    assert_int_equal(target_check(t, why, sizeof why), 414);
    assert_non_null(strstr(why, "is 8193 bytes"));
    /* 32 fields are 31 '&'; 33 are one more */
    strcpy(t, "/api/info?");
    for (int i = 0; i < 31; i++)
        strcat(t, "a&");
    strcat(t, "a");
    assert_int_equal(target_check(t, why, sizeof why), 0);
    strcat(t, "&");
    assert_int_equal(target_check(t, why, sizeof why), 400);
    assert_non_null(strstr(why, "33 fields"));
    static const char *const bad[] = {"/a%00", "/%0A", "/%1f", "/%7F", "/a\x01", "/\x7f",
                                      "/%00?x=1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(target_check(bad[i], why, sizeof why), 400);
        assert_non_null(strstr(why, "control byte"));
    }
    static const char *const good[] = {"/a%20b", "/%", "/%0", "/%zz", "/%C3%A9", "/x?v=%00",
                                       "/%80"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(target_check(good[i], why, sizeof why), 0);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eviction_order),
        cmocka_unit_test(test_eviction_per_address),
        cmocka_unit_test(test_waiting_head_kept),
        cmocka_unit_test(test_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
