/* SPDX-License-Identifier: MIT
 * heddle.h - Heddle's public runtime API: the only header a host driver includes.
 *
 * It mirrors the part of the CUDA runtime that our workloads need: create a GPU from a
 * configuration, allocate device memory, copy both ways, load a PTX module, launch a kernel by
 * name on a stream, and synchronize. Launches are asynchronous in the sense of CUDA: work is
 * queued per stream and executed by hd_synchronize()/hd_stream_synchronize() (or by a blocking
 * memcpy), so that several kernels can be resident at once once the timing model runs them.
 *
 * Errors: every call returns HD_OK (0) or a negative hd_status. The message of the last error,
 * located (file:line:col for PTX, kernel/PC/PTX line/thread/address for faults), is kept in the
 * GPU object and returned by hd_last_error(). Nothing here exits the process.
 */
#ifndef HEDDLE_H
#define HEDDLE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum hd_status {
    HD_OK = 0,
    HD_ERR_CONFIG = -1,      /* bad configuration file or value */
    HD_ERR_PTX = -2,         /* malformed PTX (message is file:line:col: ...) */
    HD_ERR_NOT_FOUND = -3,   /* unknown kernel name */
    HD_ERR_ARGS = -4,        /* wrong number or sizes of kernel arguments, bad launch dims */
    HD_ERR_MEMORY = -5,      /* allocation failure, bad device pointer, bad copy range */
    HD_ERR_FAULT = -6,       /* a kernel faulted: out-of-bounds access, trap, misaligned ... */
    HD_ERR_UNSUPPORTED = -7, /* a PTX feature the model does not implement (named) */
    HD_ERR_INTERRUPTED = -8, /* stopped by the user (Ctrl-C); statistics so far are valid */
    HD_ERR_INTERNAL = -9
};

typedef uint64_t hd_devptr; /* a device (generic/global) address */

struct hd_gpu;
struct hd_module;

struct hd_dim3 {
    uint32_t x, y, z;
};

/* One kernel argument: `size` bytes copied from `value` into the parameter buffer at the
 * parameter's declared offset. The sizes must match the PTX .param declarations. */
struct hd_arg {
    const void *value;
    size_t size;
};
#define HD_ARG(v) ((struct hd_arg){&(v), sizeof(v)})

/* Create a GPU. `config_path` NULL means the built-in default configuration (fermi-gtx480).
 * On failure returns NULL and writes a message into err[errlen]. */
struct hd_gpu *hd_gpu_create(const char *config_path, char *err, size_t errlen);
void hd_gpu_destroy(struct hd_gpu *gpu);
const char *hd_last_error(const struct hd_gpu *gpu);

/* Device memory. Allocations are 256-byte aligned; hd_free(0) is a no-op. */
int hd_malloc(struct hd_gpu *gpu, hd_devptr *out, size_t bytes);
int hd_free(struct hd_gpu *gpu, hd_devptr ptr);
int hd_memset(struct hd_gpu *gpu, hd_devptr dst, int value, size_t bytes);
int hd_memcpy_h2d(struct hd_gpu *gpu, hd_devptr dst, const void *src, size_t bytes);
int hd_memcpy_d2h(struct hd_gpu *gpu, void *dst, hd_devptr src, size_t bytes);

/* Modules. `name` is used in error messages (a file name). */
int hd_module_load_file(struct hd_gpu *gpu, const char *path, struct hd_module **out);
int hd_module_load_text(struct hd_gpu *gpu, const char *text, size_t len, const char *name,
                        struct hd_module **out);
/* Address of a module-scope .global/.const variable (for cudaMemcpyToSymbol-style copies). */
int hd_module_symbol(struct hd_gpu *gpu, struct hd_module *mod, const char *name,
                     hd_devptr *addr, size_t *bytes);

/* Registers per thread as the real compiler allocated them (issue 15; [sm] regs_source,
 * docs/timing.md "Occupancy"). Occupancy and register allocation count, by default, the count
 * ptxas recorded for a kernel; a kernel with none falls back to Heddle's own register allocator
 * with a warning. hd_module_set_ptxas attaches a `ptxas -v` summary to a loaded module (lines
 * "kernel=K registers=R shared=S local=L", '#' comments: workloads/README.md), `name` naming it
 * in messages; every kernel it lists must be in the module. hd_kernel_set_regs gives one
 * kernel's count by hand (it wins over ptxas's and over [sm] regs_source); 1 .. [sm]
 * max_regs_per_thread, else HD_ERR_ARGS with a message naming the limit. Both apply to launches
 * queued afterwards. */
int hd_module_set_ptxas(struct hd_gpu *gpu, struct hd_module *mod, const char *summary,
                        size_t len, const char *name);
int hd_kernel_set_regs(struct hd_gpu *gpu, struct hd_module *mod, const char *kernel,
                       uint32_t regs);

/* Streams: 0 is the default stream; hd_stream_create returns ids 1, 2, ... */
int hd_stream_create(struct hd_gpu *gpu, int *stream);

/* Launch attributes (issue 11, docs/context.md): given to every later launch made through this
 * handle (a client of a mix has its own). priority: higher is served first and may preempt
 * lower ([context] preempt); arrive_cycle: no CTA is placed before this GPU cycle;
 * latency_bound: preemption-latency constraint in cycles (0: [context] latency_bound);
 * hint: a word for mechanisms. All zero is the default. */
struct hd_launch_attr {
    int32_t priority;
    uint64_t arrive_cycle;
    uint64_t latency_bound;
    uint32_t hint;
};
void hd_set_launch_attr(struct hd_gpu *gpu, const struct hd_launch_attr *attr);

/* Queue a kernel launch on `stream`. */
int hd_launch(struct hd_gpu *gpu, struct hd_module *mod, const char *kernel, struct hd_dim3 grid,
              struct hd_dim3 block, uint32_t dynamic_shared_bytes, int stream,
              const struct hd_arg *args, unsigned nargs);

/* Run every queued launch to completion (all streams / one stream). */
int hd_synchronize(struct hd_gpu *gpu);
int hd_stream_synchronize(struct hd_gpu *gpu, int stream);

/* Counters of everything run so far on this GPU (functional totals; the timing model adds its
 * own statistics elsewhere). */
struct hd_run_totals {
    uint64_t kernels;
    uint64_t ctas;
    uint64_t warp_instrs;
    uint64_t thread_instrs;
};
void hd_gpu_totals(const struct hd_gpu *gpu, struct hd_run_totals *out);

/* Ctrl-C: while *flag is non-zero, running kernels stop within a few thousand instructions and
 * the synchronizing call returns HD_ERR_INTERRUPTED. `flag` (set by the caller's signal handler)
 * must outlive the GPU; NULL disables the check. (Added by the functional model, additive.) */
void hd_gpu_set_interrupt(struct hd_gpu *gpu, volatile sig_atomic_t *flag);

/* {==== The timing model (added with model/timing; additive) ====
 * Launches run on the cycle-level timing model unless the configuration's [timing] mode is
 * `functional` or hd_gpu_set_exec_mode() says otherwise. Its cycles and statistics accumulate
 * over the GPU's life; they stay valid after an error or an interrupt. */
enum hd_exec_mode { HD_EXEC_CYCLE = 0, HD_EXEC_FUNCTIONAL = 1 };
void hd_gpu_set_exec_mode(struct hd_gpu *gpu, enum hd_exec_mode mode);
enum hd_exec_mode hd_gpu_exec_mode(const struct hd_gpu *gpu);

struct hd_timing_totals {
    uint64_t cycles;             /* core cycles simulated by every timed batch so far */
    uint64_t warp_instrs, thread_instrs;
    uint64_t launches;           /* launches handed to the timing model */
    uint64_t last_launch_cycles; /* first CTA placed .. last CTA finished, latest finished launch */
    uint64_t limit_stop;         /* the cycle at which [timing] max_cycles stopped the run (the
                                    end of a `heddle run --window` measurement); 0 = it did not */
};
void hd_gpu_timing_totals(const struct hd_gpu *gpu, struct hd_timing_totals *out);

/* One timed launch (index 0 .. count-1 in submission order). */
struct hd_launch_timing {
    char kernel[96];
    int stream;
    bool finished;
    uint64_t start_cycle, end_cycle, cycles, warp_instrs, ctas;
    uint32_t sms_used;           /* SMs that ran at least one of its CTAs */
    uint32_t max_coresident;     /* most launches resident at once on an SM it used */
    uint32_t regs_per_thread;    /* counted by occupancy (before capping at the limit) */
    char regs_source[24];        /* where from: ptxas, given, config, regalloc,
                                    regalloc-fallback (no ptxas count: warn), ptx */
    uint32_t regs_regalloc;      /* Heddle's register allocator's count (register banks) */
    uint32_t ctas_per_sm;        /* occupancy on an empty SM */
};
unsigned hd_gpu_launch_timing_count(const struct hd_gpu *gpu);
int hd_gpu_launch_timing(const struct hd_gpu *gpu, unsigned index, struct hd_launch_timing *out);

/* A counter summed over the SMs: "sm.<name>" (model/timing/sm_stats.def) or "sched.<name>"
 * (sched_stats.def), e.g. "sm.reg_bank_conflicts", "sched.stall_memory". */
int hd_gpu_stat(const struct hd_gpu *gpu, const char *name, uint64_t *value);

/* Time series: a sample every `cycles` cycles (0: off, the default). */
void hd_gpu_set_sampling(struct hd_gpu *gpu, uint64_t cycles);
/* Progress line on stderr during long timed runs: off, auto (stderr is a terminal and the run
 * takes more than 3 s), on (more than 3 s). Default off. */
enum hd_progress { HD_PROGRESS_OFF = 0, HD_PROGRESS_AUTO = 1, HD_PROGRESS_ON = 2 };
void hd_gpu_set_progress(struct hd_gpu *gpu, enum hd_progress mode);

/* Statistics: the full report as JSON (configuration first), the time series as CSV, a human
 * summary. Return HD_OK or HD_ERR_INTERNAL on a write error. */
int hd_gpu_write_stats_json(const struct hd_gpu *gpu, FILE *out);
int hd_gpu_write_stats_csv(const struct hd_gpu *gpu, FILE *out);
int hd_gpu_print_stats(const struct hd_gpu *gpu, FILE *out);
/* The energy report (model/power, docs/power.md): energy and average power per component, per
 * kernel and per SM, priced with the configuration's [power] section. As JSON (one object, no
 * trailing newline; "null" when [power] enabled = false or the run was not timed) or as a
 * table. HD_OK, or HD_ERR_INTERNAL (a write error or no memory for the report). */
int hd_gpu_write_power_json(const struct hd_gpu *gpu, FILE *out);
int hd_gpu_print_power(const struct hd_gpu *gpu, FILE *out);
/* The run's total energy in joules and average power in watts (0 when not available). */
int hd_gpu_power_totals(const struct hd_gpu *gpu, double *joules, double *watts);
/* The Oracle's profile (model/mech/shieh/drain_profile.h): each finished CTA's warp instructions and
 * cycles. HD_OK, or HD_ERR_INTERNAL (a write error, or the per-CTA records could not be kept). */
int hd_gpu_write_drain_profile(const struct hd_gpu *gpu, FILE *out);
/* }==== */

#ifdef __cplusplus
}
#endif
#endif
