/* SPDX-License-Identifier: MIT
 * launch.h - one kernel launch: the kernel image, grid and block shape, dynamic shared memory and
 * the parameter buffer built from the host's arguments.
 *
 * Design: a launch is created once (arguments are checked against the kernel's PTX .param
 * declarations: count and byte sizes; dimensions against the PTX limits and the kernel's
 * .reqntid/.maxntid; shared memory against the SM) and is then read by every CTA and warp it
 * spawns. Its few mutable fields are the instruction counters, the interrupt flag pointer and
 * the error buffer the executor writes a fault report into.
 */
#ifndef HD_FUNC_LAUNCH_H
#define HD_FUNC_LAUNCH_H

#include "devmem.h"
#include "module.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct hd_func_observer;
struct hd_annot;

/* What the functional model needs from the GPU configuration. */
struct hd_func_gpu_params {
    uint32_t num_sms;            /* %nsmid; CTAs go to SMs round-robin in functional mode */
    uint32_t max_warps_per_sm;   /* %nwarpid */
    uint64_t shared_per_sm;      /* bound on a CTA's static + dynamic shared memory */
};

/* What the host says about a launch beyond its shape (issue 11): scheduling and preemption
 * policies read it; the functional model ignores it. */
struct hd_func_launch_attr {
    int32_t priority;        /* higher runs first and may preempt lower ([context] preempt) */
    uint64_t arrive_cycle;   /* no CTA is placed before this GPU cycle (0: at once) */
    uint64_t latency_bound;  /* preemption-latency constraint in cycles (0: [context] default) */
    uint32_t hint;           /* a word for mechanisms (locality, phase); 0 = none */
    /* registers per thread recorded for the kernel (0: none; model/config/regs_source.h) */
    uint32_t regs_ptxas;     /* by ptxas -v (hd_module_set_ptxas) */
    uint32_t regs_given;     /* by hand (hd_kernel_set_regs, heddle launch --regs) */
};

struct hd_func_arg {
    const void *value;
    size_t size;
};

struct hd_func_launch {
    const struct hd_func_kernel *k;
    struct hd_devmem *mem;
    struct hd_func_gpu_params gpu;
    uint32_t grid[3], block[3];
    uint32_t dyn_shared;          /* bytes of dynamic shared memory */
    uint64_t smem_bytes;          /* static + dynamic shared memory per CTA */
    uint8_t *params;              /* [k->param_bytes] */
    uint64_t nctas;
    uint32_t threads_per_cta, warps_per_cta;
    uint64_t gridid;              /* %gridid */
    /* mutable */
    volatile sig_atomic_t *interrupt; /* checked by the runner; may be NULL */
    uint64_t max_instrs;          /* the runner stops after this many warp instructions of the
                                     run (0: no limit; [timing] max_instructions, set by the
                                     runtime) */
    uint64_t instrs_before;       /* warp instructions the run executed before this launch (the
                                     limit counts the run, as in cycle mode; set by the runtime) */
    uint64_t warp_instrs, thread_instrs;
    bool finished;                /* set by the executor when every CTA completed: a client of a
                                     mix whose launches all finished keeps its result when
                                     another client's launch fails the batch */
    char err[1024];               /* the fault report of a failed step */
    /* co-simulation / sampling tap (observer.h), NULL for none; set by the runtime */
    const struct hd_func_observer *observer;
    struct hd_func_launch_attr attr; /* set by the runtime after init (zero: none) */
    /* set by the timing model when it takes the launch (NULL / 0 in the functional executor),
     * for readers of the launch (the co-simulation's observer): the image's annotation store
     * (model/compiler/annot.h; CFG, liveness, register allocation, built once per image and
     * owned by the timing view) and the registers per thread occupancy and context saves count
     * ([sm] regs_source: ptxas's by default) */
    const struct hd_annot *annot;
    uint32_t regs_per_thread;
};

/* Check and build a launch. Returns 0 or HD_FUNC_ERR_ARGS / _UNSUPPORTED / _MEMORY with a message
 * that names the kernel (and the parameter index for argument errors). */
int hd_func_launch_init(struct hd_func_launch *l, const struct hd_func_kernel *k,
                        struct hd_devmem *mem, const struct hd_func_gpu_params *gpu,
                        const uint32_t grid[3], const uint32_t block[3], uint32_t dyn_shared,
                        const struct hd_func_arg *args, unsigned nargs, uint64_t gridid,
                        char *err, size_t errlen);
void hd_func_launch_destroy(struct hd_func_launch *l);

/* Coordinates of the CTA with linear index `linear` (x fastest). */
void hd_func_launch_cta_coords(const struct hd_func_launch *l, uint64_t linear, uint32_t out[3]);

#endif
