/* SPDX-License-Identifier: MIT
 * ccbp.h - Lin thesis ch.4 CCBP in the loop (issue 29; digest §2.14-2.17, §3.14-3.15): the state
 * shared by its parts, one object per GPU.
 *   ccbp_mech.c     registry entry, attach ([ccbp] keys), the CTA quotas as the admission
 *                   policy (the CTA combination: the same on every SM, §4.5.2), the bandwidth
 *                   monitor (monitor.h windows, per application), Algorithm 1 runs, the log
 *   ccbp_irc.c      the issue-rate controllers: one per SM at the L1D miss queue, per
 *                   application a request counter and a quota per time unit (200 cycles,
 *                   §4.5.1), per-application selection out of the queue (missq_policy.h)
 *   ccbp_alg1.c     Algorithm 1 and the share-to-quota conversion
 *   ccbp_profile.c  the [ccbp] lists and the profile file
 *   ccbp_mon.c      the bandwidth monitor block's C reference fed each cycle, and the
 *                   firmware's reads of its snapshot (Algorithm 1's re-runs)
 *   ccbp_loop.c     the IRCs and the bandwidth monitor as blocks in the loop ([ccbp] blocks)
 *   ccbp_base.c     the baselines' issue-time gates: SMK's warp-scheduler time quotas and
 *                   Dai18's memory-instruction limit ([ccbp] smk_epoch, smk_quota, mil)
 *   ccbp_ctrl_fw.c  the controller's firmware around the ccbp_ctrl block (Algorithm 1 as an
 *                   FSM; tables/ccbp_ctrl.c is the model's controller, stepped per cycle)
 *   ccbp_ws.c       Warped-Slicer's online form ([ccbp] ws_online): the sampling phase, its
 *                   curves and the choice of the CTA combination on them
 * An application is what a launch's hint names (1..CCBP_APPS: `heddle run --mix M --hint W=N`);
 * a launch without a hint (or another value) belongs to application 1.
 */
#ifndef HD_CCBP_H
#define HD_CCBP_H

#include "ccbp_alg1.h"
#include "ccbp_ctrl_fw.h"
#include "ccbp_irc.h"
#include "ccbp_monitor.h"
#include "ccbp_ws.h"
#include "mech.h"
#include "missq_policy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CCBP_NO_APP 0xffu

struct ccbp_app_stats {
    uint64_t sent;        /* L1D-miss requests the IRCs let go */
    uint64_t held;        /* cycles an SM's oldest request of it waited over quota */
    uint32_t max_window;  /* most requests of it one SM sent in one window */
    uint64_t windows_at_quota; /* SM-windows in which it reached its quota */
    /* the monitor, over (0, budget] */
    uint64_t issue, requests, flits, dram_data;
    uint64_t launches;
    /* the baselines (ccbp_base.c) */
    uint64_t base_issued, smk_held, mil_held;
    uint32_t mil_max;
    /* Dai18's dynamic limit ([ccbp] mil_epoch): SM-epochs that halved / raised it, its lowest */
    uint64_t dmil_down, dmil_up;
    uint32_t dmil_min;
};

/* The baselines' gates (ccbp_base.c), per SM and application. */
struct ccbp_base {
    bool smk, lim;                   /* SMK's time quotas / Dai18's limit are on */
    uint32_t smk_quota[CCBP_APPS];   /* warp instructions per SM per epoch (0: none) */
    uint32_t mil[CCBP_APPS];         /* loads in flight per SM (0: none) */
    uint64_t epoch_len;
    uint32_t max_warps;
    uint8_t *slot_app;               /* [nsm * max_warps] application of a warp slot */
    uint32_t *used, *warps, *inflight; /* [nsm * CCBP_APPS] */
    uint64_t *changed;               /* [nsm * CCBP_APPS] last change of inflight */
    uint64_t *epoch;                 /* [nsm] the current epoch's index */
    uint64_t epochs, refills, mil_resets;
    /* Dai18's dynamic limit ([ccbp] mil_epoch; 0: the static mil) */
    uint64_t dmil_epoch;
    uint32_t *limit;                 /* [nsm * CCBP_APPS] the current limit */
    uint64_t *area, *area_t, *rets;  /* [nsm * CCBP_APPS] loads-in-flight x cycles, its time,
                                      * loads returned in the epoch */
    double *ref_lat;                 /* [nsm * CCBP_APPS] the lowest epoch latency (0: none) */
    uint64_t *dm_epoch;              /* [nsm] the epoch's index */
};

/* The bandwidth monitor as the firmware sees it (ccbp_mon.c). */
struct ccbp_mon {
    struct hd_ccbp_monitor_state s;  /* tables/ccbp_monitor.c */
    unsigned rd_next;                /* the next snapshot read (>= reads: none pending) */
    bool rd_due;                     /* a read stepped last cycle: its result is due */
    unsigned rd_k, rd_a;             /* ... of measure rd_k, application rd_a */
    uint64_t got[HD_CCBP_MON_KINDS][CCBP_APPS];  /* values read since the last take */
    uint64_t want[HD_CCBP_MON_KINDS][CCBP_APPS]; /* the model's last window (blocks: checked) */
    uint64_t want_end;
};

struct ccbp {
    const struct hd_gpu_timing_params *p;
    struct hd_ccbp_params cfg;
    unsigned napps;                  /* applications configured (at least 1) */
    uint32_t nsm;
    uint32_t cta[CCBP_APPS];         /* CTAs per SM (0: no limit) */
    uint32_t quota[CCBP_APPS];       /* requests per SM per window (0: unlimited) */
    uint8_t type[CCBP_APPS];         /* enum ccbp_type */
    /* launch id -> application */
    uint8_t *app_of;
    uint32_t napp_of;
    /* per SM */
    uint32_t *res;                   /* [nsm * CCBP_APPS] CTAs resident */
    struct hd_ccbp_irc_state *irc;   /* [nsm] the IRCs: tables/ccbp_irc.c's state (ccbp_irc.c) */
    uint8_t *cfg_pend;               /* [nsm] applications whose quota / LS bit it must take */
    uint64_t *win;                   /* [nsm] the current window's index */
    struct ccbp_app_stats st[CCBP_APPS];
    uint64_t mon_end;                /* end of the last monitor window counted */
    /* Algorithm 1 (a profile given) */
    bool alg1;
    struct ccbp_prof prof;
    struct ccbp_alloc alloc;
    struct ccbp_machine mach;
    unsigned alg1_runs;
    uint64_t next_run;
    uint64_t per_req[CCBP_APPS];     /* L1D-miss requests sent since the last run (IRC) */
    uint64_t per_flits[CCBP_APPS], per_dram[CCBP_APPS]; /* NoC flits, DRAM cycles (reads) */
    int sub;                         /* monitor subscription */
    /* Algorithm 1's re-run ([ccbp] period; docs/blocks/ccbp.md "The controller"): requested at
     * a window close, the controller block started when the snapshot reads are in, applied when
     * its results are read out */
    bool fw_pending, fw_computed;
    uint64_t fw_compute_at;
    uint64_t fw_req[CCBP_APPS];      /* requests up to the close that requested it */
    uint64_t fw_cycles;              /* cycles from the requests to the applications, summed */
    /* the blocks in the loop ([ccbp] blocks) */
    struct ccbp_loop *loop;
    struct hd_monitor *mon;
    struct ccbp_mon mw;              /* the monitor block's reference and the firmware's reads */
    int sub1;                        /* the one-cycle subscription feeding it (-1: none) */
    char loop_err[768];              /* a failure of the monitor block, reported by cycle() */
    bool err_told;                   /* ... it was (else destroy prints it) */
    struct ccbp_base base;           /* SMK's time quotas, Dai18's limit (ccbp_base.c) */
    /* the controller: the ccbp_ctrl block's reference and its firmware (ccbp_ctrl_fw.c) */
    struct ccbp_ctl ctl;
    uint64_t ctl_now;                /* the cycle its edges are stamped with */
    struct ccbp_ws *ws;              /* Warped-Slicer's sampling phase (ccbp_ws.c; NULL: off) */
};

_Static_assert(CCBP_APPS == CCBP_IRC_A && CCBP_APPS == CCBP_MONITOR_A,
               "ccbp: one IRC / monitor field per application");

/* ccbp_irc.c */
extern const struct hd_mq_policy_ops ccbp_irc_ops;
/* The application of launch id `launch` (CCBP_NO_APP: not seen yet). */
static inline unsigned ccbp_app(const struct ccbp *c, uint32_t launch)
{
    return launch < c->napp_of ? c->app_of[launch] : CCBP_NO_APP;
}

/* ccbp_mon.c: the model's monitor window that closed with cycle now (want[k][a]: measure k of
 * application a); cycle now's counts (steps the monitor block, its tick and reads; 0, or -1 with
 * a located message); the values read since the last take, added into got. */
void ccbp_mon_window(struct ccbp *c, const uint64_t want[HD_CCBP_MON_KINDS][CCBP_APPS],
                     uint64_t now);
int ccbp_mon_cycle(struct ccbp *c, const uint64_t inc[HD_CCBP_MON_KINDS][CCBP_APPS],
                   uint64_t now, char *err, size_t errlen);
void ccbp_mon_take(struct ccbp *c, uint64_t got[HD_CCBP_MON_KINDS][CCBP_APPS]);

/* ccbp_base.c: parse the baselines' keys and make their state (nothing when neither is on);
 * the hook callbacks; the log lines. */
int ccbp_base_make(struct ccbp *c, const struct hd_ccbp_params *k, uint32_t max_warps, char *err,
                   size_t errlen);
void ccbp_base_free(struct ccbp_base *b);
void ccbp_base_sched_warp(void *impl, uint32_t sm, uint32_t slot, uint8_t ev,
                          const struct hd_warp_view *v, uint64_t now);
bool ccbp_base_hold(void *impl, uint32_t sm, uint32_t slot, uint32_t cta_slot, uint32_t pc,
                    const struct hd_annot *an, uint64_t now);
void ccbp_base_load_sent(void *impl, const struct hd_hook_warp *w, uint64_t now);
void ccbp_base_load_returned(void *impl, const struct hd_hook_warp *w, bool l1_hit, uint64_t now);
void ccbp_base_log(const struct ccbp *c, FILE *f);

/* ccbp_profile.c */
/* Parse up to CCBP_APPS space-separated unsigned numbers of [ccbp] `key` (value s) into v;
 * *n = how many. Returns 0, or -1 with a message. */
int ccbp_parse_list(const char *key, const char *s, uint32_t *v, unsigned *n, char *err,
                    size_t errlen);
int ccbp_parse_types(const char *s, uint8_t *v, unsigned *n, char *err, size_t errlen);
/* Read the profile file `path` into *p. Returns 0, or -1 with a located message. */
int ccbp_profile_read(const char *path, struct ccbp_prof *p, char *err, size_t errlen);

#endif
