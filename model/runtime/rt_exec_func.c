/* SPDX-License-Identifier: MIT
 * rt_exec_func.c - the functional-only executor: each launch runs to completion, in submission
 * order, through the functional runner (model/func/runner.h), within the run's
 * [timing] max_instructions (counted over every launch of the GPU, as in cycle mode).
 */
#include "rt_exec.h"
#include "rt_internal.h"

#include "func_status.h"
#include "runner.h"

#include <stdio.h>

static int run_functional(void *impl, struct hd_func_launch *const *launches, const int *streams,
                          unsigned n, volatile sig_atomic_t *interrupt, char *err, size_t errlen)
{
    const struct hd_gpu *gpu = impl;
    (void)streams;
    /* [timing] max_instructions counts the run (the GPU's warp instructions so far), as the
     * cycle model does */
    uint64_t before = gpu ? gpu->totals.warp_instrs : 0;
    for (unsigned i = 0; i < n; i++) {
        struct hd_func_launch *l = launches[i];
        l->interrupt = interrupt;
        l->max_instrs = gpu ? gpu->cfg.timing_max_instructions : 0;
        l->instrs_before = before;
        int st = hd_func_run(l);
        before += l->warp_instrs;
        l->finished = st == HD_FUNC_OK;
        if (st != HD_FUNC_OK) {
            snprintf(err, errlen, "%s", l->err);
            return st;
        }
    }
    return HD_FUNC_OK;
}

static void destroy_functional(void *impl)
{
    (void)impl;
}

const struct hd_rt_exec_ops hd_rt_exec_functional = {"functional", run_functional,
                                                      destroy_functional};
