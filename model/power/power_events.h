/* SPDX-License-Identifier: MIT
 * power_events.h - the event counts the energy model prices, gathered from the statistics that
 * the timing model (model/timing/timing_stats.h) and the full memory system (model/mem/
 * mem_stats.h) keep: for the run, for one SM and for one kernel launch.
 *
 * Design: one record of doubles (power_events.def) per scope, filled from counters that already
 * exist; nothing here runs during simulation. The run's and an SM's counts are exact counter
 * sums. A launch's SM-side and memory-side counts are its own counters (launch_stats.def, the
 * memory system's per-kernel record); its time-based counts (cycles, SM active and idle cycles,
 * DRAM background, refreshes, the added blocks' events) are the run's, times the launch's share
 * of the summed launch durations, and its activates and precharges the run's times its share
 * of row misses, so that kernels that ran one after another split the run exactly (GPUWattch
 * reports per kernel the same way: the interval's energy). A per-SM record has cycles = 0: the
 * chip-level terms (interconnect, L2, DRAM, constant power) belong to the run, not to an SM.
 */
#ifndef HD_POWER_EVENTS_H
#define HD_POWER_EVENTS_H

#include "config.h"
#include "mem_stats.h"
#include "timing_stats.h"

#include <stdbool.h>

enum hd_pevent {
#define HD_PEVENT(name, doc) HD_PEV_##name,
#include "power_events.def"
#undef HD_PEVENT
    HD_PEV_COUNT
};

struct hd_power_events {
    double n[HD_PEV_COUNT];
};

const char *hd_pevent_name(enum hd_pevent e);

/* The whole run. mem may be NULL (the fixed-latency memory model: no memory-system events). */
void hd_power_events_run(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                         const struct hd_mem_stats *mem, const struct hd_config *cfg);
/* SM `sm` alone (its core and L1 events, its active and idle cycles; no chip-level time). */
void hd_power_events_sm(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                        const struct hd_mem_stats *mem, uint32_t sm);
/* What hd_power_events_launch needs of the whole run, gathered once (so that a run of many
 * launches costs linear time): the run's events, the summed launch durations, the memory
 * system's totals and each launch's per-kernel record (NULL: none). Free with ..._free. */
struct hd_power_launch_ctx {
    struct hd_power_events run;
    double sum_cycles;
    struct hd_mem_acct tot;
    const struct hd_mem_acct **rec;   /* [ts->nlaunch] */
    bool memory;
};
int hd_power_launch_ctx_init(struct hd_power_launch_ctx *c, const struct hd_timing_stats *ts,
                             const struct hd_mem_stats *mem, const struct hd_power_events *run);
void hd_power_launch_ctx_free(struct hd_power_launch_ctx *c);
/* Launch `index` of ts. */
void hd_power_events_launch(struct hd_power_events *ev, const struct hd_timing_stats *ts,
                            const struct hd_power_launch_ctx *c, uint32_t index);

#endif
