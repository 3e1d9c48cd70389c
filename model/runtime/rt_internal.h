/* SPDX-License-Identifier: MIT
 * rt_internal.h - the GPU object behind heddle.h (internal to model/runtime).
 *
 * Design: a GPU owns its configuration, its device memory, the modules loaded into it (the
 * public handle is the parsed IR module; the GPU maps it to the loaded image), the streams'
 * queue of pending launches (one queue in submission order, each entry tagged with its stream),
 * the executor that runs them (functional, or the timing model which it then owns), the running
 * totals and the last error message.
 */
#ifndef HD_RT_INTERNAL_H
#define HD_RT_INTERNAL_H

#include "config.h"
#include "devmem.h"
#include "heddle.h"
#include "heddle_mix.h"
#include "launch.h"
#include "module.h"
#include "rt_exec.h"

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>

struct hd_gpu_timing;

struct hd_rt_module {
    struct hd_module *ir;          /* the public handle */
    struct hd_func_module *image;
    char *name;
    uint32_t *regs_ptxas;          /* [image->nkernels] registers per thread recorded by ptxas */
    uint32_t *regs_given;          /* [image->nkernels] given by hand (0: none) */
};

struct hd_rt_pending {
    struct hd_func_launch *launch;
    int stream;
    bool finished;                 /* ran to completion in the batch being run */
};

struct hd_gpu {
    struct hd_config cfg;
    struct hd_func_gpu_params params;
    struct hd_devmem mem;
    struct hd_rt_module *mods;
    unsigned nmods, cap_mods;
    struct hd_rt_pending *queue;
    unsigned nqueue, cap_queue;
    unsigned nrun;                  /* queue[0..nrun) is the batch being run (it grows when an
                                       open client queues launches during the batch) */
    int nstreams;                   /* streams created (ids 1..nstreams) */
    uint64_t launches;              /* %gridid of the next launch */
    struct hd_launch_attr attr;     /* given to this handle's next launches */
    /* concurrent clients and the kernel observer (heddle_mix.h; rt_client.c, rt_mix.c) */
    struct hd_rt_client *client;    /* non-NULL: this handle is a client view of client->gpu */
    struct hd_rt_mix *mix;          /* non-NULL while clients run on this GPU */
    hd_kernel_observer observer;
    void *observer_arg;
    unsigned batches;               /* synchronizations that ran at least one launch */
    const struct hd_rt_exec_ops *exec;
    void *exec_impl;
    volatile sig_atomic_t *interrupt;
    struct hd_run_totals totals;
    char err[4096];
    /* the timing model (rt_exec_timing.c) */
    enum hd_exec_mode mode;
    struct hd_gpu_timing *timing;   /* created at the first timed batch */
    uint64_t sample_every;
    enum hd_progress progress_mode;
    double progress_t0, progress_last;
    uint64_t progress_instrs0;
    bool progress_shown;
    int timing_status;              /* of the last timed batch */
    char timing_msg[1024];
    const struct hd_func_observer *func_observer; /* heddle_observe.h (co-simulation) */
    const struct hd_hw_factory *hw_factory;       /* heddle_observe.h (NULL: C references) */
};

/* The timing executor's teardown (rt_exec_timing.c; the executor's impl is the GPU). */
void hd_rt_timing_free(struct hd_gpu *gpu);
/* A host-to-device copy finished (the timing model may preload its lines into the L2). */
int hd_rt_timing_copied_h2d(struct hd_gpu *gpu, hd_devptr dst, size_t bytes);
/* A device-to-host copy finished (with [mem] l2_preload_d2h the same L2 update as a
 * host-to-device copy: GPGPU-Sim 4's memcpy_from_gpu). */
int hd_rt_timing_copied_d2h(struct hd_gpu *gpu, hd_devptr src, size_t bytes);

/* Record a message as the last error and return `status`. */
int hd_rt_fail(struct hd_gpu *gpu, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The kernel image called `kernel` in module `mod`, or NULL with HD_ERR_NOT_FOUND recorded
 * (naming the kernel and listing the module's kernels). */
const struct hd_func_kernel *hd_rt_find_kernel(struct hd_gpu *gpu, struct hd_module *mod,
                                               const char *kernel);
/* The register counts recorded for kernel k (0: none; rt_module.c). */
void hd_rt_kernel_regs(const struct hd_gpu *gpu, const struct hd_func_kernel *k, uint32_t *ptxas,
                       uint32_t *given);
/* Free every loaded module (at destroy). */
void hd_rt_modules_free(struct hd_gpu *gpu);
/* Drop pending launches without running them. */
void hd_rt_queue_clear(struct hd_gpu *gpu);

#endif
