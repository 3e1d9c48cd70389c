/* SPDX-License-Identifier: MIT
 * rt_exec.h - how the runtime executes queued launches: one small ops interface.
 *
 * Design: the runtime queues launches per stream and hands a batch to an executor when the host
 * synchronizes. The functional executor (rt_exec_func.c) runs them one after another to
 * completion; the timing executor (rt_exec_timing.c) has the same interface, overlaps launches
 * of different streams, finishes launches of one stream in order and honours launch
 * attributes (arrival cycle, priority: docs/context.md).
 * The executor reports each launch's counters through the launch itself (hd_func_launch).
 */
#ifndef HD_RT_EXEC_H
#define HD_RT_EXEC_H

#include "launch.h"

#include <signal.h>
#include <stddef.h>

struct hd_rt_exec_ops {
    const char *name;
    /* Run launches[0..n) (submission order; streams[i] is the stream of launch i). Returns 0
     * or an HD_FUNC_ERR_* code with the report in err (then the batch is abandoned). */
    int (*run)(void *impl, struct hd_func_launch *const *launches, const int *streams, unsigned n,
               volatile sig_atomic_t *interrupt, char *err, size_t errlen);
    void (*destroy)(void *impl);
};

/* The functional-only executor (impl unused). */
extern const struct hd_rt_exec_ops hd_rt_exec_functional;

#endif
