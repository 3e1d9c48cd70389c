/* SPDX-License-Identifier: MIT
 * locality_cta_dist.h - bit-exact, cycle-exact C reference of Gong's locality-aware block
 * distributor (thesis ch.6 §6.3.1, Fig 6.8; RTL rtl/locality_cta_dist/locality_cta_dist.sv), in
 * the GPU's CTA scheduler, linear chunk order, one CTA dispatched per cycle.
 *
 * What it holds: the SM that received the last CTA (SW bits), the CTAs of the current chunk it
 * received (CW bits, saturating) and the chunk's launch (LW bits, with a valid bit). A request of
 * hint 0 goes to the first SM with room after the last (round-robin); of hint 1-3 it stays on
 * the last SM while the chunk is of its launch, smaller than req_chunk_i and the SM has room,
 * else the first SM with room after it starts a new chunk. With one CTA placed per cycle these
 * are the picks of model/policy/cta_dist_locality.c (cta_dist_order = linear).
 *
 * Keep mode (req_keep_i: cta_dist_order = keep, hints 1-3): the SM is picked round-robin (as
 * hint 0); a fresh CTA (req_fresh_i) is the next of the picked SM's range, or, when that range
 * is used up, the last unplaced CTA of the first SM after it (ring order) that has some. The
 * ranges (SM i: [i * C, (i + 1) * C) clipped to req_nctas_i, C = req_chunk_i) are held for one
 * launch (its LW-bit id, valid bit and CTAs left) and loaded at a fresh request of another launch
 * or when the held one has none left. The same picks and CTAs as the policy's cta() when one
 * launch at a time places keep-mode CTAs (the loop checks that).
 *
 * Storage: SW + CW + LW + 1 bits, plus keep mode's 2 * NSM * IW + LW + IW + 1 (Kepler sizing:
 * 29 + 448 + 25 = 502). Timing: every output is
 * registered, one cycle after req_v_i; within an edge batch_i's reset comes first. Interface:
 * rtl/locality_cta_dist/locality_cta_dist_ports.def.
 */
#ifndef HD_LOCALITY_CTA_DIST_H
#define HD_LOCALITY_CTA_DIST_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "locality_cta_dist_ports.def"
#define HD_PORTS_DIR IN
struct hd_locality_cta_dist_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_locality_cta_dist_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(LOCALITY_CTA_DIST_NSM >= 1 && LOCALITY_CTA_DIST_NSM <= 64 &&
                   LOCALITY_CTA_DIST_NSM <= (1u << LOCALITY_CTA_DIST_SW),
               "locality_cta_dist: NSM must be 1..64 and fit SW bits");
_Static_assert(LOCALITY_CTA_DIST_CW >= 2 && LOCALITY_CTA_DIST_CW <= 32 &&
                   LOCALITY_CTA_DIST_LW >= 1 && LOCALITY_CTA_DIST_LW <= 32 &&
                   LOCALITY_CTA_DIST_IW >= 2 && LOCALITY_CTA_DIST_IW <= 32,
               "locality_cta_dist: CW 2..32, LW 1..32, IW 2..32");
#endif

extern const struct hd_block_desc hd_locality_cta_dist_block;

struct hd_locality_cta_dist_state {
    uint32_t last, cnt, launch;
    bool chunk_v;
    /* keep mode */
    uint32_t rp[LOCALITY_CTA_DIST_NSM], re[LOCALITY_CTA_DIST_NSM]; /* each SM's unplaced range */
    uint32_t klaunch, left;      /* the held launch and its CTAs not yet placed */
    bool kv;                     /* a launch is held */
    bool loaded;                 /* (coverage only, no flop) the last edge loaded the ranges */
    struct hd_locality_cta_dist_out q;
    uint64_t cycle;
};

void hd_locality_cta_dist_ref_reset(struct hd_locality_cta_dist_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_locality_cta_dist_ref_step(struct hd_locality_cta_dist_state *s,
                                   const struct hd_locality_cta_dist_in *in,
                                   struct hd_locality_cta_dist_out *out);
/* Idle (hw_inst.h): no request, no new batch, and nothing in the output registers. */
bool hd_locality_cta_dist_ref_idle(const struct hd_locality_cta_dist_state *s,
                                   const struct hd_locality_cta_dist_in *in);

#endif
