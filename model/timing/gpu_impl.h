/* SPDX-License-Identifier: MIT
 * gpu_impl.h - the GPU top's state (internal to gpu_timing.c and gpu_report.c).
 */
#ifndef HD_GPU_IMPL_H
#define HD_GPU_IMPL_H

#include "cta_admit.h"
#include "cta_dist.h"
#include "ctx_pool.h"
#include "gpu_timing.h"
#include "kernel_sel.h"
#include "mech.h"
#include "mem_iface.h"
#include "regs_source.h"
#include "preempt_policy.h"
#include "sm.h"
#include "timing_params.h"
#include "tkernel.h"

/* One launch of the current batch. `sl` must stay the first member (SMs hand it back). Each
 * is allocated on its own and never moves while the batch runs (SMs, contexts and the CTA
 * scheduler hold pointers to it), so launches can be added to a running batch (gpu_launch.c). */
struct tlaunch {
    struct hd_sm_launch sl;
    int stream;
    int prev_same, prev_zero;   /* launches it waits for (-1: none) */
    uint64_t nctas, next_cta, done_ctas;
    bool started, finished;
    uint32_t info_id, line_set;
    uint8_t *sm_used;           /* [num_sms] SMs it placed a CTA on */
};

struct tk_entry {
    const struct hd_func_kernel *k;
    struct hd_tkernel *tk;
    int lines;                  /* its per-line statistics */
    struct hd_done_totals *done; /* its finished CTAs over all its launches (Shieh's per-kernel
                                    finished-TB statistics) */
};

struct hd_gpu_timing {
    struct hd_config cfg;
    struct hd_gpu_timing_params p;
    struct hd_occ_params occ;
    struct hd_regs_source regs_src; /* [sm] regs_source, parsed once */
    struct hd_mem mem;
    struct hd_sm **sm;          /* [num_sms] */
    struct hd_timing_stats stats;
    struct hd_cta_dist dist;
    struct hd_ksel ksel;
    struct hd_cta_admit admit;  /* the admission veto (default: allow all) */
    bool alloc_timed;           /* some SM's allocator has timers (sm_policy.h) */
    struct tk_entry *tk;
    uint32_t ntk, cap_tk;
    uint64_t now;
    /* the current batch (gpu_launch.c): L[0..nl) in submission order, each stable */
    struct tlaunch **L;
    unsigned nl, cap_l, done, running, first_unfinished;
    struct hd_ksel_cand *cand;  /* [cap_l] scratch of the CTA scheduler (cta_sched.c) */
    unsigned *cand_index;       /* [cap_l] */
    uint32_t *order;            /* [cap_l] */
    unsigned *fin;              /* [cap_l] launches finished this cycle, for the finish hook */
    unsigned nfin;
    hd_gpu_timing_finish_fn finish_fn; /* called after a launch finishes (may add launches) */
    void *finish_ctx;
    bool *ok, *got;             /* [num_sms] scratch of the CTA scheduler */
    uint64_t *sleep_until;      /* [num_sms] 0: awake; else the SM is not ticked before then */
    uint64_t *acct;             /* [num_sms] a sleeping SM's statistics cover cycles up to this */
    bool dirty;                 /* something changed that may let a CTA be placed */
    uint64_t idle;              /* cycles without progress */
    uint64_t instr_last, instr_cycle; /* warp instructions at the last poll that saw them change
                                         (gpu_limits.c: the watchdog on instruction progress) */
    uint64_t last_launch_cycles;
    uint64_t obs_next;          /* gpu_observe.c: next context-sample cycle (0: not set) */
    /* context lifecycle (ctx_pool.h, ctx_gpu.c) */
    struct hd_ctx_pool pool;
    uint64_t rng;               /* stress mode's generator state */
    uint64_t vrng;              /* the swap/move stress's (ctx_vstress.c) */
    uint32_t *evicted;          /* scratch [64] */
    unsigned *reserved;         /* [num_sms] launch index an SM is being freed for, or NONE */
    bool held;                  /* some SM may be reserved: hd_gpu_preempt_tick must run (it
                                   is what releases a reservation; a hold needs no record) */
    uint64_t next_arrival;      /* earliest arrive_cycle > now of a launch (UINT64_MAX: none) */
    /* preemption (ctx_preempt.c) */
    struct hd_preempt_policy ppol;
    struct hd_preempt_sm *pview; /* [num_sms] the policy's view */
    struct hd_preempt_cta *pcta; /* [num_sms * max_ctas] */
    uint32_t *pchosen;          /* [num_sms] */
    uint8_t *pact;              /* [num_sms * max_ctas] */
    uint32_t next_signal;       /* the next of [context] signals to fire */
    uint32_t sig_cursor;        /* the SM the next signal looks at first */
    uint32_t *sig_rec;          /* [num_sms] record of the signal an SM is being emptied for */
    uint32_t open_rec;          /* records before it are met, missed or unbounded */
    uint32_t open_util;         /* records before it integrate their utilisation no more */
    uint32_t open_dobs;         /* drain observations before it have their true time */
    uint64_t *pest;             /* [num_sms * max_ctas * 2] the policy's drain estimates of
                                   its plan (preempt_policy.h hd_preempt_env drain_est) */
    /* reports */
    hd_gpu_timing_progress_fn progress;
    void *progress_ctx;
    const struct hd_hw_factory *hw; /* block instances in the loop (NULL: C references) */
    struct hd_hooks hooks;      /* the mechanisms' hardware in the loop (mech.h) */
    uint32_t ppol_mech;         /* the mechanism that made the preemption policy (UINT32_MAX:
                                   a generic one) */
    void *ppol_tables;          /* its hook's tables (hd_hook_ops.tables): the policy's env.tables */
    struct hd_monitor *mon;     /* the windowed monitor (monitor.h, monitor_core.h) */
    uint64_t mon_next;          /* the cycle at whose end it closes windows (UINT64_MAX: none) */
    uint64_t sig_periodic;      /* periodic signals fired ([context] signal_period, ctx_preempt.c) */
    struct hd_mech_act act;     /* what mechanisms may ask of it (gpu_mech_act.c) */
};

/* gpu_launch.c: launch storage and bookkeeping */
/* Set up launch l on `stream` as L[nl] (statistics record, kernel timing view, registers,
 * occupancy, stream order). Call hd_gpu_launches_bind() before the next cycle. */
int hd_gpu_launch_add(struct hd_gpu_timing *g, struct hd_func_launch *l, int stream, char *err,
                      size_t errlen);
/* Point every launch at its statistics records (they move when the arrays grow). */
void hd_gpu_launches_bind(struct hd_gpu_timing *g);
/* Free every launch of the batch (between runs and at destroy). */
void hd_gpu_launches_clear(struct hd_gpu_timing *g);
/* Collect the CTAs that finished on SM s (a launch whose last CTA retired finishes). */
bool hd_gpu_collect(struct hd_gpu_timing *g, uint32_t s);
/* Call the finish hook for the launches that finished since the last call. */
int hd_gpu_launches_notify(struct hd_gpu_timing *g, char *err, size_t errlen);

/* cta_sched.c: the CTA scheduler */
/* The admission query about SM s and a CTA (linear index cta) of launch la (cta_admit.h). */
void hd_gpu_admit_query(const struct hd_gpu_timing *g, uint32_t s, const struct hd_sm_launch *la,
                        uint64_t cta, struct hd_admit_query *q);
/* Place up to one CTA per SM. Returns how many were placed, or a negative status. */
int hd_gpu_schedule_ctas(struct hd_gpu_timing *g, char *err, size_t errlen);
/* The earliest arrival cycle after now of a launch of the batch (UINT64_MAX: none). */
uint64_t hd_gpu_next_arrival(const struct hd_gpu_timing *g);
/* Is there work to do now: a launch running, or one that has arrived and may start? (A launch
 * that has not arrived is not pending work: the GPU waits for it, the watchdog does not count.) */
bool hd_gpu_work_arrived(const struct hd_gpu_timing *g);
/* {==== gpu_sleep.c: sleeping SMs ==== */
/* Wake SM s, its statistics accounted up to cycle upto. */
void hd_gpu_sm_wake(struct hd_gpu_timing *g, uint32_t s, uint64_t upto);
/* The first cycle at which SM s can change (its events, its memory responses, its allocator's
 * timers). */
uint64_t hd_gpu_sm_wake_time(const struct hd_gpu_timing *g, uint32_t s);
/* Put SM s to sleep until cycle `until`. */
void hd_gpu_sm_sleep(struct hd_gpu_timing *g, uint32_t s, uint64_t until);
/* Account every sleeping SM's cycles up to and including `upto`; they stay asleep. */
void hd_gpu_account_all(struct hd_gpu_timing *g, uint64_t upto);
/* }==== */

/* ctx_gpu.c: stress mode and preemption requests */
/* Queue the contexts SM s saved or flushed; returns whether there were any. */
bool hd_gpu_ctx_collect(struct hd_gpu_timing *g, uint32_t s);
/* Stress mode's eviction point (called every [context] stress_period cycles). */
void hd_gpu_ctx_stress(struct hd_gpu_timing *g);
/* The swap/move stress point (every [context] swap_stress_period or move_stress_period
 * cycles; ctx_gpu.c, ctx_vstress.c). */
void hd_gpu_vstress(struct hd_gpu_timing *g, bool move);
/* The next cycle > now at which ctx_gpu.c has something to do (UINT64_MAX: none). */
uint64_t hd_gpu_ctx_next_event(const struct hd_gpu_timing *g);
/* Wake SM s (its statistics accounted up to the previous cycle). */
void hd_gpu_wake_sm(struct hd_gpu_timing *g, uint32_t s);

/* ctx_preempt.c: preemption requests for launches of higher priority, preemption signals */
#define HD_RESERVED_NONE UINT32_MAX
/* The policy and its scratch. Returns 0, or -1 (message in err). */
int hd_gpu_preempt_init(struct hd_gpu_timing *g, char *err, size_t errlen);
void hd_gpu_preempt_free(struct hd_gpu_timing *g);
/* Fire the next preemption signal ([context] signals, signal_at). */
void hd_gpu_preempt_signal(struct hd_gpu_timing *g);
/* The cycle of the next preemption signal (UINT64_MAX: none left). */
uint64_t hd_gpu_preempt_next_signal(const struct hd_gpu_timing *g);
/* Launch li cannot place a CTA: free SMs that hold only lower-priority CTAs for it. */
void hd_gpu_preempt_for(struct hd_gpu_timing *g, unsigned li);
/* Is SM s reserved for a launch other than li? */
bool hd_gpu_reserved_against(const struct hd_gpu_timing *g, uint32_t s, unsigned li);
/* Launch li placed a CTA on SM s (a request for it is met). */
void hd_gpu_preempt_placed(struct hd_gpu_timing *g, uint32_t s, unsigned li);
/* Once per cycle while requests exist: lift reservations, check latency bounds. */
void hd_gpu_preempt_tick(struct hd_gpu_timing *g);

/* gpu_report.c */
void hd_gpu_sample(struct hd_gpu_timing *g);
void hd_gpu_watchdog_report(const struct hd_gpu_timing *g, char *err, size_t errlen);
/* gpu_observe.c: call the launches' observers (model/func/observer.h) after a cycle. */
int hd_gpu_observe(struct hd_gpu_timing *g, char *err, size_t errlen);

/* gpu_mech_act.c: what a mechanism may ask of the GPU (mech.h struct hd_mech_act). */
const struct hd_mech_act *hd_gpu_mech_act(struct hd_gpu_timing *g);

#endif
