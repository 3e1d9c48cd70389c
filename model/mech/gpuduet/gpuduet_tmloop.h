/* SPDX-License-Identifier: MIT
 * gpuduet_tmloop.h - GPUDuet's throughput monitor and ME controller block (gpuduet_tmon, one per
 * SM) stepped in the GPU timing loop, its ME the model's ([gpuduet] blocks; Lin thesis §2.10,
 * §3.13, Table 3.3; docs/blocks/gpuduet.md "In the GPU").
 *
 * Design. Per SM an instance made through the GPU's block factory (the C reference in a plain
 * run, the RTL beside it or driving it under `heddle cosim --blocks gpuduet --in-loop`). The
 * first TB of a launch (one whose plan switches: level not off) placed on an SM starts that
 * SM's monitor (start_i with [gpuduet] warmup, window and the plan's ME upper bound); a TB of
 * another launch restarts it. Every cycle the SM's counts of the cycle before (the GPU monitor's
 * one-cycle windows, monitor.h: warp instructions issued, L1D data-port cycles of hits,
 * interconnect flits of both directions, L2 data-port cycles of hits (Lin Sec. 3.4.1) and DRAM
 * data cycles of the SM's requests;
 * each saturated at the input's 15) are the block's inputs: the counters sit one register
 * behind the pipeline. With [gpuduet] dynamic the ME of the SM's launch is the block's me_o
 * (0 until its first update, and for a launch the monitor was not started for): the SM's
 * allocator and CSL take it (gd_tb_limit_sm). Without dynamic the monitor runs and logs only.
 * Deterministic; the block's outputs are the only state the model reads.
 */
#ifndef HD_GPUDUET_TMLOOP_H
#define HD_GPUDUET_TMLOOP_H

#include "hw_inst.h"
#include "timing_params.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hd_mon_window;
struct gd_tm;

/* The monitors of a GPU of params p; hw: the GPU's factory (may point at NULL). NULL with a
 * message when [gpuduet] warmup or window does not fit the block's WinW bits. */
struct gd_tm *gd_tm_create(const struct hd_gpu_timing_params *p,
                           const struct hd_hw_factory *const *hw, char *err, size_t errlen);
void gd_tm_destroy(struct gd_tm *t);
/* Make the instances (before the first cycle). 0, or -1 with a message. */
int gd_tm_make(struct gd_tm *t, char *err, size_t errlen);
/* A TB of launch `launch` (ME upper bound ub) was placed on SM sm. */
void gd_tm_placed(struct gd_tm *t, uint32_t sm, uint32_t launch, uint32_t ub);
/* A one-cycle window of the GPU's monitor closed: the per-SM counts of the next step. */
void gd_tm_counts(struct gd_tm *t, const struct hd_mon_window *w);
/* The end of cycle `now`: step every running monitor. 0, or -1 with a message. `log`: one line
 * per update (NULL: none). */
int gd_tm_cycle(struct gd_tm *t, uint64_t now, FILE *log, char *err, size_t errlen);
/* SM sm's ME for launch `launch`: the block's last me_o when its monitor runs for that launch,
 * else 0. */
uint32_t gd_tm_me(const struct gd_tm *t, uint32_t sm, uint32_t launch);
/* The log's summary line. */
void gd_tm_log(const struct gd_tm *t, FILE *f);

#endif
