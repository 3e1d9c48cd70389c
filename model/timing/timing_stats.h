/* SPDX-License-Identifier: MIT
 * timing_stats.h - the statistics of a timed run: per SM, per scheduler, per launch, per PTX
 * line, and a time series; their JSON, CSV and text writers.
 *
 * Design: counters are declared once per unit in an X-macro table (sm_stats.def,
 * sched_stats.def, launch_stats.def; rule C12) that generates the struct fields here and the
 * writers' field lists, so a new counter is one line. The units increment plain fields (no
 * calls, no allocation per event); the GPU owns one struct hd_timing_stats for its whole life,
 * so totals accumulate over every synchronization, and whatever was gathered before an error or
 * Ctrl-C stays valid and writable. Per-PC counters are kept per kernel image and folded into
 * PTX lines when written. Samples every N cycles (0 = off) record cumulative instructions,
 * resident warps/CTAs and each running launch's finished CTAs.
 */
#ifndef HD_TIMING_STATS_H
#define HD_TIMING_STATS_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* {==== Counter tables ==== */
struct hd_sm_stats {
#define HD_STAT(name, doc) uint64_t name;
#include "sm_stats.def"
#undef HD_STAT
};

struct hd_sched_stats {
#define HD_STAT(name, doc) uint64_t name;
#include "sched_stats.def"
#undef HD_STAT
};

struct hd_launch_stats {
#define HD_STAT(name, doc) uint64_t name;
#include "launch_stats.def"
#undef HD_STAT
};

/* One counter of a table, for generic writers. */
struct hd_stat_desc {
    const char *name, *doc;
    size_t offset;
};
const struct hd_stat_desc *hd_sm_stats_desc(unsigned *n);
const struct hd_stat_desc *hd_sched_stats_desc(unsigned *n);
const struct hd_stat_desc *hd_launch_stats_desc(unsigned *n);
static inline uint64_t hd_stat_get(const void *table, const struct hd_stat_desc *d)
{
    return *(const uint64_t *)((const char *)table + d->offset);
}
/* }==== */

/* {==== Records ==== */
struct hd_launch_info {
    char kernel[96];
    uint32_t id;            /* launch number on this GPU (0, 1, ...) */
    int stream;
    uint32_t grid[3], block[3];
    uint64_t smem;          /* bytes per CTA */
    uint32_t regs_per_thread; /* counted by occupancy (model/config/regs_source.h) */
    char regs_source[24];   /* ptxas, given, config, regalloc, regalloc-fallback, ptx */
    uint32_t regs_regalloc; /* our register allocator's count (the register banks use it) */
    uint32_t ctas_per_sm;   /* occupancy on an empty SM */
    char limiter[24];       /* the resource that bounds it */
    uint32_t line_set;      /* index of its kernel's per-line counters */
    bool finished;
    struct hd_launch_stats c;
    /* per CTA of the grid (the Oracle's profile, drain_profile.h): warp instructions and cycles
     * from its first placement to its end, [2 * c.ctas], allocated at the first CTA to finish
     * (cta_prof_oom: it could not be) */
    uint64_t *cta_prof;
    bool cta_prof_oom;
};

struct hd_line_stats {      /* per kernel image */
    char kernel[96], file[160];
    uint32_t npc;
    uint32_t *line;         /* [npc] PTX line of each PC */
    uint64_t *issued;       /* [npc] warp instructions */
    uint64_t *stall;        /* [npc] scheduler stall cycles charged to the PC */
};

struct hd_sample {
    uint64_t cycle, warp_instrs; /* cumulative at `cycle` */
    uint32_t active_warps, active_ctas;
    uint32_t prog_off, prog_n;   /* entries in prog[] */
};

struct hd_sample_prog {
    uint32_t launch;
    uint32_t pad;
    uint64_t ctas_done;
};
/* }==== */

/* One preemption request: SM `sm` is freed for launch `launch` (docs/context.md). */
#define HD_PREEMPT_SIGNAL UINT32_MAX /* hd_preempt_rec.launch of a preemption signal */
#define HD_PREEMPT_MIXED 4           /* hd_preempt_rec.primitive: CTAs left in different ways */

struct hd_preempt_rec {
    uint32_t launch, victim;   /* launch ids: the one that asked (HD_PREEMPT_SIGNAL: a
                                  [context] signal), the first one it preempted */
    uint32_t sm;
    uint8_t primitive;         /* enum hd_cfg_preempt, or HD_PREEMPT_MIXED */
    uint32_t switched, flushed, drained; /* CTAs asked to leave each way (a refused flush is
                                  counted as drained too) */
    uint64_t bytes;            /* bytes the switched CTAs' saves wrote */
    bool met;                  /* the SM took a CTA of `launch` */
    bool missed;               /* not met within the latency bound */
    uint32_t refused;          /* CTAs a flush refused (they wrote global memory) */
    uint64_t signal, freed;    /* cycles: the request; the first CTA of `launch` placed there */
    uint64_t quiet, saved;     /* the last victim quiet (drain part), its save acknowledged or
                                  its flush done (save part); 0: none */
    uint64_t bound;            /* the constraint it was measured against (0: none) */
    /* throughput overhead (Shieh §4.3, digest §5.4): warp instructions the CTAs asked to leave
     * had executed (what flushing them all would lose), those of the flushed ones (lost), and
     * the sum of the switched ones' IPC (x their save and restore time = lost issue) */
    uint64_t victim_instrs, flushed_instrs;
    double switch_ipc;
    /* utilisation during preemption (Shieh Fig 4.4): over the cycles [signal, freed) (while the
     * SM is reserved for the request), the registers and threads held by the SM's running CTAs
     * (hd_sm_working: not being suspended, saved or restored; any kernel) as fractions of the
     * SM's, summed per cycle; and the same fractions at the request, before any CTA left */
    uint64_t util_cycles;
    double util_regs, util_threads;
    double regs_at_signal, threads_at_signal;
    bool util_open;            /* (integration state: still integrating, since util_last with
                                  the fractions util_cur_*) */
    uint64_t util_last;
    double util_cur_regs, util_cur_threads;
    /* `bytes` split as Lin Fig 2.14 splits the spilled state: register records (with their
     * pattern vectors), shared memory, SIMT stacks (with the CCB entries) */
    uint64_t bytes_regs, bytes_smem, bytes_stack;
    /* issue 24 (Shieh Table 4.2 coverage): CTAs resident on the SM at the request (every launch
     * but the asker's), and of the CTAs asked to leave those the policy could estimate by
     * Shieh's predictor (finished-TB statistics of their kernel; the policy gave estimates) */
    uint32_t ctas_at_signal, asked, asked_estimated;
    /* issue 24 item 9 (Lin L1067-L1079): the switched CTAs' spill latency as Lin accumulates
     * it: over their warps with registers saved, the cycles from the warp's stop at its
     * preemption point (at the earliest the signal) to its last register request sent, summed;
     * and how many warps */
    uint64_t warp_spill_cycles;
    uint32_t warp_spill_warps;
    /* Lin Fig 2.4 ([context] inplace_split): of the switched CTAs those whose shared memory
     * stayed allocated in place (registers only saved), and the shared-memory bytes kept */
    uint32_t smem_kept;
    uint64_t smem_kept_bytes;
    /* Lin Fig 2.14 as time (issue 24): over the switched CTAs' saves, the cycles in which the
     * SM's context engine sent, or waited to send, requests of each part (registers with their
     * pattern vectors, including waits for the compressor and packer; shared memory; SIMT
     * stacks with the CCB entries); a cycle counts once per part and CTA */
    uint64_t cycles_regs, cycles_smem, cycles_stack;
    /* issue 24 (Lin's 1.8 us): the switched CTAs' per-warp spill as service time: over their
     * warps with registers saved, the cycles from the warp's first register request sent to
     * its last (both included), summed; divided by warp_spill_warps, the mean per warp */
    uint64_t warp_service_cycles;
    /* Lin 2.5.5 ([context] inplace_stop): of the switched CTAs those stopped in place (their
     * registers and shared memory stayed allocated; SIMT stacks saved only) */
    uint32_t regs_kept;
    /* Lin Fig 2.15 (issue 24): the cycles the SM's save pipeline was busy with the switched
     * CTAs' saves (any part, waits for the compressor and packer included, each cycle once);
     * Lin's drain is the latency less this, the time the pipeline waits for warps */
    uint64_t cycles_engine;
};

/* One CTA a preemption request drained (or whose flush was refused, so it drained): the drain
 * latency estimated when it was asked, by Shieh's lower-variance CPI predictor and by Chimera's
 * residency estimate (HD_DRAIN_EST_NONE: the policy gave none; HD_DRAIN_EST_MAX: the estimator
 * had no statistics, L236's maximum), and its true drain time (the cycle it left the SM, its
 * resources free, less the cycle it was asked; HD_DRAIN_EST_NONE while it has not left,
 * HD_DRAIN_LOST if its context could not be followed). Shieh Fig 4.2. */
#define HD_DRAIN_EST_NONE UINT64_MAX
#define HD_DRAIN_EST_MAX ((uint64_t)UINT32_MAX)
#define HD_DRAIN_LOST (UINT64_MAX - 1)
struct hd_drain_obs {
    uint32_t rec;              /* its request (preempt[] index) */
    uint32_t ctx;              /* its context id and epoch when asked */
    uint16_t epoch;
    uint64_t asked;
    uint64_t left0;            /* its context's t_left when asked (ctx_pool.h) */
    uint64_t est_shieh, est_chimera;
    uint64_t actual;
};

struct hd_timing_stats {
    uint32_t num_sms, num_sched;
    double core_mhz;
    uint64_t cycles;           /* simulated core cycles (every run) */
    uint64_t warp_instrs, thread_instrs;
    uint64_t skipped_cycles;   /* cycles skipped because nothing could happen in them */
    uint64_t limit_stop;       /* the cycle at which [timing] max_cycles stopped the run; 0 =
                                  it did not (heddle run --window: a window measurement) */
    struct hd_sm_stats *sm;    /* [num_sms] */
    struct hd_sched_stats *sched; /* [num_sms * num_sched] */
    struct hd_launch_info *launch;
    uint32_t nlaunch, cap_launch;
    struct hd_line_stats *lines;
    uint32_t nlines, cap_lines;
    uint64_t sample_every;     /* cycles between samples, 0 = none */
    struct hd_sample *samples;
    uint32_t nsamples, cap_samples;
    struct hd_sample_prog *prog;
    uint32_t nprog, cap_prog;
    struct hd_preempt_rec *preempt;
    uint32_t npreempt, cap_preempt;
    struct hd_drain_obs *dobs; /* drained CTAs of the requests, in the order asked */
    uint32_t ndobs, cap_dobs;
    double sm_bytes_per_cycle; /* an SM's fair share of the DRAM bandwidth per core cycle
                                  (Shieh's B / N_SM; JSON totals; 0: not set) */
};

/* {==== Building ==== */
int hd_timing_stats_init(struct hd_timing_stats *s, uint32_t num_sms, uint32_t num_sched,
                         double core_mhz);
void hd_timing_stats_free(struct hd_timing_stats *s);
/* CTA `cta` of launch li finished after `instrs` warp instructions and `cycles` cycles from
 * its first placement (its last run from its first instruction). */
void hd_launch_info_note_cta(struct hd_launch_info *li, uint64_t cta, uint64_t instrs,
                             uint64_t cycles);
/* A new launch record (zeroed) or NULL on allocation failure; its index is ->id. */
struct hd_launch_info *hd_timing_stats_new_launch(struct hd_timing_stats *s);
/* A new per-line record of npc PCs; returns its index or -1. */
int hd_timing_stats_new_lines(struct hd_timing_stats *s, const char *kernel, const char *file,
                              uint32_t npc);
/* Append a sample with nprog progress entries to fill in (returned), or NULL. */
struct hd_sample *hd_timing_stats_new_sample(struct hd_timing_stats *s, uint32_t nprog,
                                             struct hd_sample_prog **prog);
/* }==== */

/* {==== Writers ==== */
/* s as a JSON string (quoted, with '"', '\\' and control characters escaped; NULL: ""). */
void hd_stats_json_str(FILE *f, const char *s);
/* The whole report as JSON: configuration echo, totals, launches, SMs with their schedulers,
 * PTX lines per kernel, samples. `status` and `message` describe how the run ended. */
void hd_timing_stats_json(const struct hd_timing_stats *s, const struct hd_config *cfg,
                          int status, const char *message, FILE *out);
/* The same with a "memory" member whose value (one JSON value) `memory` writes, e.g. the full
 * memory system's statistics (model/mem/mem_report.h). */
void hd_timing_stats_json_ex(const struct hd_timing_stats *s, const struct hd_config *cfg,
                             int status, const char *message, FILE *out,
                             void (*memory)(FILE *out, void *ctx), void *ctx);
/* The time series as CSV (cycle, ipc over the interval, active warps, active CTAs, ...). */
void hd_timing_stats_csv(const struct hd_timing_stats *s, FILE *out);
/* A human summary (a few dozen lines). */
void hd_timing_stats_summary(const struct hd_timing_stats *s, FILE *out);
/* Scheduler totals over every SM (stall_idle filled in). */
void hd_timing_stats_sched_total(const struct hd_timing_stats *s, struct hd_sched_stats *out);
/* }==== */

#endif
