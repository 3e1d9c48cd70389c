/* SPDX-License-Identifier: MIT
 * testutil.h - a minimal test harness for the unit tests: named cases, checks that report
 * file:line and the values, and a summary exit code.
 */
#ifndef HD_TESTUTIL_H
#define HD_TESTUTIL_H

#include <stdbool.h>
#include <stdint.h>

struct hd_test_state {
    int failures;
    int checks;
    const char *current;
};

void hd_test_begin(struct hd_test_state *t, const char *case_name);
bool hd_test_check(struct hd_test_state *t, bool ok, const char *file, int line, const char *expr);
bool hd_test_check_u64(struct hd_test_state *t, uint64_t expected, uint64_t got, const char *file,
                       int line, const char *expr);
bool hd_test_check_f64(struct hd_test_state *t, double expected, double got, double tol,
                       const char *file, int line, const char *expr);
int hd_test_finish(struct hd_test_state *t); /* prints a summary; returns the process exit code */

#define HD_CHECK(t, cond) hd_test_check((t), (cond), __FILE__, __LINE__, #cond)
#define HD_CHECK_U64(t, exp, got) \
    hd_test_check_u64((t), (uint64_t)(exp), (uint64_t)(got), __FILE__, __LINE__, #got)
#define HD_CHECK_F64(t, exp, got, tol) \
    hd_test_check_f64((t), (exp), (got), (tol), __FILE__, __LINE__, #got)

#endif
