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
 * An application is what a launch's hint names (1..CCBP_APPS: `heddle run --mix M --hint W=N`);
 * a launch without a hint (or another value) belongs to application 1.
 */
#ifndef HD_CCBP_H
#define HD_CCBP_H

#include "ccbp_alg1.h"
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
    uint32_t *cnt;                   /* [nsm * CCBP_APPS] requests sent in the current window */
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
    uint64_t per_req[CCBP_APPS], per_flits[CCBP_APPS], per_dram[CCBP_APPS]; /* since last run */
    int sub;                         /* monitor subscription */
};

/* ccbp_irc.c */
extern const struct hd_mq_policy_ops ccbp_irc_ops;
/* The application of launch id `launch` (CCBP_NO_APP: not seen yet). */
static inline unsigned ccbp_app(const struct ccbp *c, uint32_t launch)
{
    return launch < c->napp_of ? c->app_of[launch] : CCBP_NO_APP;
}

/* ccbp_profile.c */
/* Parse up to CCBP_APPS space-separated unsigned numbers of [ccbp] `key` (value s) into v;
 * *n = how many. Returns 0, or -1 with a message. */
int ccbp_parse_list(const char *key, const char *s, uint32_t *v, unsigned *n, char *err,
                    size_t errlen);
int ccbp_parse_types(const char *s, uint8_t *v, unsigned *n, char *err, size_t errlen);
/* Read the profile file `path` into *p. Returns 0, or -1 with a located message. */
int ccbp_profile_read(const char *path, struct ccbp_prof *p, char *err, size_t errlen);

#endif
