/* SPDX-License-Identifier: MIT
 * gpu_timing.h - the GPU top of the timing model: SMs, memory, the CTA scheduler, concurrent
 * launches and the cycle loop.
 *
 * Design: one object per simulated GPU, alive across synchronizations, so that cycles and
 * statistics accumulate. hd_gpu_timing_run() takes a batch of launches in submission order with
 * their streams and runs them to completion: launches of one stream run in order, the default
 * stream (0) waits for and blocks every other stream (CUDA's legacy default stream), launches of
 * different streams overlap (up to [timing] max_concurrent_kernels started at once). Each cycle
 * the memory model and every busy SM are ticked (idle SMs cost nothing), finished CTAs are
 * collected, and when something changed the CTA scheduler places at most one CTA per SM: the
 * kernel-selection policy ranks the launches, the distribution policy picks among the SMs whose
 * allocation layer can take the CTA (and that may mix kernels, [sm] concurrent_kernels).
 * Cycles in which nothing can change (everything waits on memory) are skipped and accounted as
 * the stalls they would have counted. A watchdog stops the run after [timing] watchdog_cycles
 * without progress while work is pending, with a report of the queues and of the waiting warps
 * (PC and PTX line). %clock is the SM cycle; %smid the SM. Deterministic: nothing depends on
 * wall time or host addresses. Interrupts (Ctrl-C) are polled every few thousand cycles.
 */
#ifndef HD_GPU_TIMING_H
#define HD_GPU_TIMING_H

#include "config.h"
#include "launch.h"
#include "occupancy.h"
#include "sm_alloc.h"
#include "timing_stats.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct hd_gpu_timing;

/* Progress callback (for a progress line): called every 2^16 simulated cycles. */
typedef void (*hd_gpu_timing_progress_fn)(void *ctx, const struct hd_timing_stats *st,
                                          uint64_t cycle, unsigned launches_done,
                                          unsigned launches);

/* Create from a validated configuration. Returns 0, or HD_FUNC_ERR_CONFIG / _MEMORY with a
 * message. */
int hd_gpu_timing_create(const struct hd_config *cfg, struct hd_gpu_timing **out, char *err,
                         size_t errlen);
void hd_gpu_timing_destroy(struct hd_gpu_timing *g);

/* Run launches ls[0..n) (streams[i] is launch i's stream) to completion. Returns HD_FUNC_OK or
 * an HD_FUNC_ERR_* code with the report in err; on error or interrupt nothing of the batch stays
 * resident and the statistics gathered so far remain. */
int hd_gpu_timing_run(struct hd_gpu_timing *g, struct hd_func_launch *const *ls, const int *streams,
                      unsigned n, volatile sig_atomic_t *interrupt, char *err, size_t errlen);

/* Called after launch l (of `stream`) finished, at the end of the cycle's SM ticks, while the
 * rest of the batch is still resident: it may add launches with hd_gpu_timing_add() (open-ended
 * co-running: a client relaunches its kernel while another one runs). Returns HD_FUNC_OK, or an
 * HD_FUNC_ERR_* code with a message in err (the run then stops with that report). */
typedef int (*hd_gpu_timing_finish_fn)(void *ctx, struct hd_func_launch *l, int stream,
                                       char *err, size_t errlen);
/* Install the finish hook (NULL: none, the default; the batch then runs as a closed one). */
void hd_gpu_timing_set_finish(struct hd_gpu_timing *g, hd_gpu_timing_finish_fn fn, void *ctx);
/* Add launch l on `stream` to the running batch (only from the finish hook): it takes part in
 * stream order like a launch of the batch submitted last, and hd_gpu_timing_run() returns only
 * after it finished too. Returns HD_FUNC_OK, or an HD_FUNC_ERR_* code with a message. */
int hd_gpu_timing_add(struct hd_gpu_timing *g, struct hd_func_launch *l, int stream, char *err,
                      size_t errlen);

/* Statistics so far (valid between runs). */
const struct hd_timing_stats *hd_gpu_timing_stats(const struct hd_gpu_timing *g);
/* Its memory model (fixed or full, mem_iface.h; for the memory system's statistics). */
struct hd_mem;
const struct hd_mem *hd_gpu_timing_mem(const struct hd_gpu_timing *g);
/* The host copied [addr, addr + bytes) to the device (between batches): the memory model may
 * take note ([mem] l2_preload_copies). */
void hd_gpu_timing_copied_h2d(struct hd_gpu_timing *g, uint64_t addr, uint64_t bytes);
/* Sample the time series every `cycles` cycles (0: off). */
void hd_gpu_timing_set_sampling(struct hd_gpu_timing *g, uint64_t cycles);
/* Install a CTA admission policy (cta_admit.h; NULL: allow all, the default). The GPU owns impl
 * from now on (ops->destroy frees it). */
struct hd_cta_admit_ops;
void hd_gpu_timing_set_admit(struct hd_gpu_timing *g, const struct hd_cta_admit_ops *ops,
                             void *impl);
/* Replace every SM's allocator by make()'s (between runs, no CTA resident). Returns 0 or -1. */
int hd_gpu_timing_set_alloc(struct hd_gpu_timing *g, hd_sm_alloc_make_fn make, void *ctx);
void hd_gpu_timing_set_progress(struct hd_gpu_timing *g, hd_gpu_timing_progress_fn fn, void *ctx);
/* The factory that makes the hardware-block instances stepped in the timing loop (hw_inst.h;
 * e.g. the context codecs, ctx_codec.h): NULL (the default) = the C references (hw_ref.h);
 * cosim/ gives one that co-simulates the RTL. Set before the first run; `f` must outlive g. */
struct hd_hw_factory;
void hd_gpu_timing_set_hw_factory(struct hd_gpu_timing *g, const struct hd_hw_factory *f);

#endif
