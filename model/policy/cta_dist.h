/* SPDX-License-Identifier: MIT
 * cta_dist.h - CTA distribution policies: which SM receives the next CTA (style rule C9).
 *
 * Design: the GPU's CTA scheduler places at most one CTA per SM per cycle. For each placement it
 * computes which SMs could take a CTA of the selected launch (resources through the SM's
 * allocation layer, kernel-mixing rules) and asks the policy to pick one of them.
 *   round_robin  the first SM that can take it after the SM that received the previous CTA
 *                (GPGPU-Sim's issue_block2core order); a batch started on an idle GPU begins
 *                at SM 0, so CTA i of a lone kernel runs on SM i mod num_sms, as in the
 *                functional model
 *   fill_first   the lowest-numbered SM that has room, even if that means waiting for the
 *                next cycle (packs CTAs, leaves SMs idle)
 *   sm_mask      round-robin over the SMs the launch's hint names (bit SM % 32; hint 0: all):
 *                spatial partitioning chosen per launch (heddle run --hint, a mix's hint key)
 * Every pick names the CTA it is for (launch id, linear CTA index, grid), so a policy can
 * place neighbouring CTAs together (Gong ch.6's locality-aware distribution) or keep launches
 * apart; later policies are further implementations.
 */
#ifndef HD_CTA_DIST_H
#define HD_CTA_DIST_H

#include "config.h"

#include <stdbool.h>
#include <stdint.h>

/* The CTA to be placed. */
struct hd_cta_dist_req {
    uint32_t launch;   /* launch id */
    uint64_t cta;      /* linear CTA index in its grid (a resumed CTA keeps its index) */
    uint64_t nctas;    /* CTAs of the launch */
    uint32_t grid[3];
    /* issue 25 item 7 (docs/admission.md) */
    uint32_t ctaid[3]; /* the CTA's coordinates in the grid (x fastest) */
    uint32_t kernel;   /* the kernel's stable id (cta_admit.h) */
    uint32_t hint;     /* the launch's hint */
    /* issue 31 (cta_dist_order = keep) */
    bool resumed;      /* a saved context coming back (its CTA index is fixed), not a fresh CTA */
};

struct hd_cta_dist_ops {
    const char *name;
    /* Choose an SM for CTA r: ok[i] says SM i has room for it (and admits it), busy[i] that SM
     * i already received a CTA this cycle (it cannot take another before the next). -1: none
     * now. */
    int (*pick)(void *impl, const struct hd_cta_dist_req *r, const bool *ok, const bool *busy,
                uint32_t n);
    /* SM `sm` received a CTA. */
    void (*placed)(void *impl, uint32_t sm);
    /* The GPU is idle and a new batch of launches starts. */
    void (*reset)(void *impl);
    void (*destroy)(void *impl);
    /* Optional (NULL: the launch's next CTA in linear order). The linear index of the fresh CTA
     * of r's launch that SM `sm` receives, r being the request pick() just chose `sm` for (its
     * cta: the next in linear order); called once per fresh CTA placed, before placed(). A
     * policy choosing it must return every index of the launch exactly once (issue 31: Gong's
     * distributor keeping each SM's range of CTAs across waves, cta_dist_locality.h).
     * UINT64_MAX: the host is out of memory. */
    uint64_t (*cta)(void *impl, const struct hd_cta_dist_req *r, uint32_t sm);
};

struct hd_cta_dist {
    const struct hd_cta_dist_ops *ops;
    void *impl;
};

/* Returns 0, or -1 on allocation failure. */
int hd_cta_dist_create(enum hd_cfg_ctadist kind, uint32_t nsms, struct hd_cta_dist *out);

#endif
