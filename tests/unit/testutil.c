/* SPDX-License-Identifier: MIT
 * testutil.c - the unit-test harness behind testutil.h.
 */
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

void hd_test_begin(struct hd_test_state *t, const char *case_name)
{
    t->current = case_name;
}

static void report(const struct hd_test_state *t, const char *file, int line)
{
    fprintf(stderr, "%s:%d: FAIL in case '%s': ", file, line, t->current ? t->current : "?");
}

bool hd_test_check(struct hd_test_state *t, bool ok, const char *file, int line, const char *expr)
{
    t->checks++;
    if (!ok) {
        t->failures++;
        report(t, file, line);
        fprintf(stderr, "%s\n", expr);
    }
    return ok;
}

bool hd_test_check_u64(struct hd_test_state *t, uint64_t expected, uint64_t got, const char *file,
                       int line, const char *expr)
{
    t->checks++;
    if (expected != got) {
        t->failures++;
        report(t, file, line);
        fprintf(stderr, "%s = 0x%" PRIx64 " (%" PRId64 "), expected 0x%" PRIx64 " (%" PRId64 ")\n",
                expr, got, (int64_t)got, expected, (int64_t)expected);
        return false;
    }
    return true;
}

bool hd_test_check_f64(struct hd_test_state *t, double expected, double got, double tol,
                       const char *file, int line, const char *expr)
{
    t->checks++;
    bool ok = (isnan(expected) && isnan(got)) || expected == got || fabs(expected - got) <= tol;
    if (!ok) {
        t->failures++;
        report(t, file, line);
        fprintf(stderr, "%s = %.9g, expected %.9g (tol %g)\n", expr, got, expected, tol);
    }
    return ok;
}

int hd_test_finish(struct hd_test_state *t)
{
    printf("%d checks, %d failures\n", t->checks, t->failures);
    return t->failures ? 1 : 0;
}
