/* SPDX-License-Identifier: MIT
 * locality_cta_dist.c - the block distributor's C reference (locality_cta_dist.h).
 *
 * Design: the fields mirror the RTL's flops one for one; one edge applies a new batch's reset,
 * then decides the request and updates the chunk state.
 */
#include "locality_cta_dist.h"

#include <string.h>

#define HD_PORTS_DEF "locality_cta_dist_ports.def"
#define HD_PORTS_IN_T struct hd_locality_cta_dist_in
#define HD_PORTS_OUT_T struct hd_locality_cta_dist_out
#define HD_PORTS_BLOCK_VAR hd_locality_cta_dist_block
#include "hd_ports_table.h"

#define NSM LOCALITY_CTA_DIST_NSM
#define CMAX ((uint32_t)(((uint64_t)1 << LOCALITY_CTA_DIST_CW) - 1u))
#define LMASK ((uint32_t)(((uint64_t)1 << LOCALITY_CTA_DIST_LW) - 1u))
#define IMASK ((uint32_t)(((uint64_t)1 << LOCALITY_CTA_DIST_IW) - 1u))

static void base_state(struct hd_locality_cta_dist_state *s)
{
    s->last = NSM - 1;
    s->cnt = 0;
    s->launch = 0;
    s->chunk_v = false;
}

void hd_locality_cta_dist_ref_reset(struct hd_locality_cta_dist_state *s)
{
    memset(s, 0, sizeof *s);
    base_state(s);
    hd_block_reset_values(&hd_locality_cta_dist_block, HD_DIR_OUT, &s->q);
}

/* Keep mode, a fresh CTA placed on SM `pick`: load the ranges if needed, then the SM's own next
 * CTA or the last of the first SM after it that has some. */
static void keep_pick(struct hd_locality_cta_dist_state *s,
                      const struct hd_locality_cta_dist_in *in, uint32_t launch, uint32_t chunk,
                      uint32_t pick)
{
    const uint32_t n = (uint32_t)in->req_nctas_i & IMASK;
    if (!s->kv || s->klaunch != launch || s->left == 0) {
        for (uint32_t i = 0; i < NSM; i++) {
            const uint64_t lo = (uint64_t)i * chunk, hi = lo + chunk;
            s->rp[i] = (uint32_t)(lo < n ? lo : n);
            s->re[i] = (uint32_t)(hi < n ? hi : n);
        }
        s->left = n;
        s->loaded = true;
    }
    s->kv = true;
    s->klaunch = launch;
    bool found = true;
    if (s->rp[pick] < s->re[pick]) {
        s->q.pick_cta_o = s->rp[pick]++;
        s->q.pick_new_o = 0;
    } else {
        found = false;
        for (uint32_t k = 1; k < NSM && !found; k++) {
            const uint32_t v = (pick + k) % NSM;
            if (s->rp[v] < s->re[v]) {
                s->q.pick_cta_o = --s->re[v];
                found = true;
            }
        }
    }
    if (found && s->left)
        s->left--;
}

void hd_locality_cta_dist_ref_step(struct hd_locality_cta_dist_state *s,
                                   const struct hd_locality_cta_dist_in *in,
                                   struct hd_locality_cta_dist_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    s->loaded = false;
    if (in->batch_i & 1u)
        base_state(s);
    if (!(in->req_v_i & 1u))
        return;
    const uint32_t launch = (uint32_t)in->req_launch_i & LMASK;
    const bool chunked = (in->req_hint_i & 3u) != 0;
    const bool keep = (in->req_keep_i & 1u) != 0;
    const bool lin = chunked && !keep;
    const uint32_t given = (uint32_t)in->req_chunk_i & CMAX;
    const uint32_t chunk = given ? given : 1;
    const uint64_t ok = in->ok_i;
    const bool same_chunk = lin && s->chunk_v && s->launch == launch;
    int pick = -1;
    if (same_chunk && s->cnt < chunk && (ok >> s->last & 1u))
        pick = (int)s->last;
    for (uint32_t k = 1; pick < 0 && k <= NSM; k++) {
        uint32_t i = (s->last + k) % NSM;
        if (ok >> i & 1u)
            pick = (int)i;
    }
    if (pick < 0)
        return;
    const bool same = same_chunk && (uint32_t)pick == s->last;
    s->q.pick_v_o = 1;
    s->q.pick_sm_o = (uint32_t)pick;
    s->q.pick_new_o = !same;
    if (keep && chunked && (in->req_fresh_i & 1u))
        keep_pick(s, in, launch, chunk, (uint32_t)pick);
    if (same) {
        if (s->cnt < CMAX)
            s->cnt++;
    } else {
        s->cnt = 1;
        s->chunk_v = chunked;
        s->launch = chunked ? launch : 0;
    }
    s->last = (uint32_t)pick;
}

bool hd_locality_cta_dist_ref_idle(const struct hd_locality_cta_dist_state *s,
                                   const struct hd_locality_cta_dist_in *in)
{
    return !(in->req_v_i & 1u) && !(in->batch_i & 1u) && !s->q.pick_v_o && !s->q.pick_new_o;
}
